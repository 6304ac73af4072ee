// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QTextBrowser;

namespace plumb {

struct ExperimentRunInfo;
struct RunInfo;
struct SourceInfo;
struct TraceInfo;

// The details pane beside the tabs: the numbers of the selected trace (or a run's totals, or an
// experiment run's facts and params) as a
// two-column table in a read-only text view, so that long file names and paths wrap and can be
// selected and copied. Shows a hint when nothing is selected.
class TraceDetailsWidget final : public QWidget {
    Q_OBJECT
public:
    explicit TraceDetailsWidget(QWidget *parent = nullptr);

    // `source` may be null (a trace whose source row is missing).
    void showTrace(const TraceInfo &trace, const RunInfo &run, const SourceInfo *source);
    void showRun(const RunInfo &run);
    // An experiment-log run (the Experiments tab's current run) with its params as (key, value).
    void showExperimentRun(const ExperimentRunInfo &run, const QList<QPair<QString, QString>> &params);
    void clear();
    [[nodiscard]] QString plainText() const;

private:
    void setContent(const QString &title, const QList<QPair<QString, QString>> &rows);

    QTextBrowser *m_view;
};

} // namespace plumb
