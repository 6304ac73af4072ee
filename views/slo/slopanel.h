// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/histogram.h"
#include "analysis/objectivecheck.h"
#include "backgroundanalysis.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace plumb {

class HistogramChart;
class SloTimeChart;

// The SLO tab: an objectives file (plumb check's) evaluated on the workspace. The objective table
// (status, value, threshold, margin, what was measured), the latency and TTFT histograms of the run
// checked with each request objective's threshold as a line, and latency percentiles (p50, p90, p99)
// over time windows with the windows that broke a windowed latency objective shaded. Everything is
// read and computed on a worker (evaluateObjectives, readServingRequests); a newer request drops the
// results of an older one. Charts export PNG/PDF from their context menu.
class SloPanel final : public QWidget {
    Q_OBJECT
public:
    explicit SloPanel(QWidget *parent = nullptr);
    ~SloPanel() override;

    void setWorkspace(const QString &workspacePath);
    // The objectives file to evaluate; `remember`: kept for the next start (the user chose it).
    void setObjectivesFile(const QString &path, bool remember = false);
    [[nodiscard]] QString objectivesFile() const { return m_objectivesFile; }
    void reload();

    [[nodiscard]] QTableWidget *table() const { return m_table; }
    [[nodiscard]] SloTimeChart *timeChart() const { return m_time; }
    [[nodiscard]] QString summaryText() const;

signals:
    void loaded();

private:
    struct Result;
    void show(const Result &r);
    void chooseFile();

    QString m_workspacePath, m_objectivesFile;
    QLabel *m_summary = nullptr;
    QPushButton *m_open = nullptr;
    QTableWidget *m_table = nullptr;
    HistogramChart *m_latency = nullptr;
    HistogramChart *m_ttft = nullptr;
    SloTimeChart *m_time = nullptr;
    BackgroundAnalysis m_analysis; // a newer request or Cancel stops the one running
};

} // namespace plumb
