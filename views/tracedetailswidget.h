#pragma once

#include <QWidget>

class QFormLayout;
class QLabel;

namespace plumb {

struct RunInfo;
struct SourceInfo;
struct TraceInfo;

// The details pane beside the browser: the numbers of the selected trace (or a run's totals) as a
// form of read-only, selectable labels. Shows a hint when nothing is selected.
class TraceDetailsWidget final : public QWidget {
    Q_OBJECT
public:
    explicit TraceDetailsWidget(QWidget *parent = nullptr);

    // `source` may be null (a trace whose source row is missing).
    void showTrace(const TraceInfo &trace, const RunInfo &run, const SourceInfo *source);
    void showRun(const RunInfo &run);
    void clear();

private:
    void setRows(const QList<QPair<QString, QString>> &rows);

    QLabel *m_title;
    QLabel *m_hint;
    QWidget *m_form;
    QFormLayout *m_layout;
};

} // namespace plumb
