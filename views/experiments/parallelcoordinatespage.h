// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/trialtable.h"
#include "backgroundanalysis.h"
#include "experiments/experimentview.h"
#include "experiments/parallelcoordinatesgeometry.h"

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;

namespace plumb {

class ParallelCoordinatesChart;

// The Experiments tab's parallel coordinates: the selected runs as polylines across one axis per
// chosen param or metric, coloured by a chosen metric. The axis list on the right picks the axes
// (default: the params that vary across the runs, then the colour metric); brushing an axis (drag
// along it) keeps the runs inside every brush, listed below the axes with their count. Export
// writes the chart as PNG or PDF.
//
// The runs are read on a worker thread with its own Reader connection; a result for a superseded
// selection is dropped.
class ParallelCoordinatesPage final : public ExperimentView {
    Q_OBJECT
public:
    explicit ParallelCoordinatesPage(QWidget *parent = nullptr);
    ~ParallelCoordinatesPage() override;

    void setSelection(const QString &workspacePath, const QList<int64_t> &runIds) override;

    struct Result {
        QString error;
        TrialTable table;
    };

    [[nodiscard]] ParallelCoordinatesChart *chart() const { return m_chart; }
    [[nodiscard]] QComboBox *metricBox() const { return m_metric; }
    [[nodiscard]] QComboBox *statisticBox() const { return m_statistic; }
    [[nodiscard]] QListWidget *axisList() const { return m_axes; }
    [[nodiscard]] QListWidget *keptList() const { return m_kept; }
    [[nodiscard]] QLabel *keptLabel() const { return m_keptLabel; }
    [[nodiscard]] const TrialTable &table() const { return m_table; }
    // The axes checked in the list, in its order.
    [[nodiscard]] QList<ParallelCoordinatesGeometry::AxisSpec> chosenAxes() const;

Q_SIGNALS:
    void loaded();

private:
    void display(const Result &result);
    void fillAxisList();
    void rebuild();
    void updateKept();
    void exportChart();

    QString m_workspacePath;
    QList<int64_t> m_runIds;
    TrialTable m_table;
    QStringList m_shortNames; // run names without the folders they all share
    QStringList m_userAxes; // axes the user checked or unchecked ("p:key" / "m:key"), kept across selections
    QStringList m_userUnchecked;
    bool m_filling = false;

    QComboBox *m_metric;
    QComboBox *m_statistic;
    QPushButton *m_clear;
    QPushButton *m_export;
    QLabel *m_status;
    ParallelCoordinatesChart *m_chart;
    QListWidget *m_axes;
    QLabel *m_keptLabel;
    QListWidget *m_kept;
    BackgroundAnalysis m_analysis; // a newer request or Cancel stops the one running
};

} // namespace plumb
