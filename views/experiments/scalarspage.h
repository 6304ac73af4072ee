// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "backgroundanalysis.h"
#include "charts/scalarchart.h"
#include "experiments/experimentview.h"
#include "store/experimentreader.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QScrollArea;
class QSlider;
class QWidget;

namespace plumb {

class RunValueChart;
class XYChart;

// The Scalars page of the Experiments tab: the selected runs' scalar tags, one ScalarChart per tag
// chosen in the tag list (checkboxes, with a filter), in a scrolling grid; the runs overlaid in
// distinct colours named in the run legend beside the tags. Controls: x axis (step, time since the
// series' first point, wall time), smoothing weight (TensorBoard's debiased EMA, 0..0.999, default
// 0.6), log y, and restarts: by default what TensorBoard shows (at each step the latest segment
// that reached it, latestSegmentPoints), else every segment as a line of its own.
//
// A tag every selected run logs at most once (an MLflow run's final metrics) is not a line chart of
// one dot per run: it is a bar per run (RunValueChart), the best run marked by the tag's direction
// (metricDirection(): lower for loss-like names, higher for accuracy-like ones, none when unknown),
// beside a scatter of the value against a numeric param chosen in "Against" (XYChart). The param
// offered first is one whose value differs between the runs, a learning rate when there is one.
//
// Points are read on a worker thread with a Reader connection of its own, only for the tags
// chosen, and kept per (run, tag) while they stay selected and unchanged (a series whose point count
// changed is read again); results of superseded requests are dropped.
class ScalarsPage final : public ExperimentView {
    Q_OBJECT
public:
    enum class Restarts { Latest, EverySegment };

    explicit ScalarsPage(QWidget *parent = nullptr);
    ~ScalarsPage() override;

    void setSelection(const QString &workspacePath, const QList<int64_t> &runIds) override;

    // Tags of the selected runs, and the ones charted (in list order).
    [[nodiscard]] QStringList tags() const;
    [[nodiscard]] QStringList chosenTags() const;
    void setChosenTags(const QStringList &tags);
    void setXKind(ScalarChart::XKind kind);
    void setSmoothing(double weight);
    void setLogY(bool log);
    void setRestarts(Restarts restarts);
    [[nodiscard]] QList<ScalarChart *> charts() const { return m_charts; }
    // The tags charted as one value per run, each as bars and a scatter (same order).
    [[nodiscard]] QList<RunValueChart *> barCharts() const { return m_barCharts; }
    [[nodiscard]] QList<XYChart *> scatterCharts() const { return m_scatterCharts; }
    // Whether every selected run logs `tag` at most once.
    [[nodiscard]] bool isOneValuePerRun(const QString &tag) const;
    // The numeric params the scatters can be drawn against, and the one chosen.
    [[nodiscard]] QStringList scatterParams() const;
    [[nodiscard]] QString scatterParam() const;
    void setScatterParam(const QString &key);
    [[nodiscard]] QSlider *smoothingSlider() const { return m_smoothing; }
    [[nodiscard]] QListWidget *tagList() const { return m_tagList; }
    [[nodiscard]] QListWidget *runLegend() const { return m_legend; }
    [[nodiscard]] QString hint() const;
    // The colour of the i-th selected run.
    [[nodiscard]] static QColor runColor(int i);

    using Points = std::shared_ptr<const std::vector<ScalarPoint>>;
    struct Result {
        QString error;
        QHash<int64_t, QString> runNames;
        std::vector<SeriesSummary> series; // scalars of the selected runs
        std::vector<RunParam> params; // of the selected runs
        QStringList chosen; // the tags charted
        QHash<QPair<int64_t, int64_t>, Points> points; // newly read, by (run, key id)
    };

    static constexpr int kDefaultTags = 4;
    static constexpr double kDefaultSmoothing = 0.6;
    static constexpr int kSliderSteps = 1000; // weight = value / kSliderSteps, at most 0.999

Q_SIGNALS:
    // After the charts show a new selection or new tags.
    void loaded();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void request();
    void display(const Result &result);
    void fillTagList();
    void rebuildCharts();
    [[nodiscard]] std::vector<ScalarLine> linesFor(int64_t keyId) const;
    void addComparison(const QString &tag);
    void fillParamBox();
    void updateScatters();
    void layoutCharts();
    void updateSmoothingLabel();

    QString m_workspacePath;
    QList<int64_t> m_runIds;
    BackgroundAnalysis m_analysis; // a newer request or Cancel stops the one running
    QHash<int64_t, QString> m_runNames;
    std::vector<SeriesSummary> m_series;
    QStringList m_tags; // scalar tags of the selected runs, sorted
    QSet<QString> m_chosen; // kept across selections
    bool m_userChose = false; // the user picked tags: no more defaults
    QHash<QPair<int64_t, int64_t>, Points> m_points;
    std::vector<RunParam> m_params;

    QComboBox *m_xKind;
    QSlider *m_smoothing;
    QLabel *m_smoothingValue;
    QCheckBox *m_logY;
    QComboBox *m_restarts;
    QWidget *m_lineControls; // x, smoothing, log y, restarts
    QLabel *m_paramLabel;
    QComboBox *m_param; // the scatters' x: a numeric param
    QLineEdit *m_tagFilter;
    QListWidget *m_tagList;
    QListWidget *m_legend;
    QLabel *m_hint;
    QScrollArea *m_scroll;
    QWidget *m_grid;
    QGridLayout *m_gridLayout;
    QList<ScalarChart *> m_charts;
    QList<QWidget *> m_comparisons; // a row per one-value tag: its bars and its scatter
    QList<RunValueChart *> m_barCharts;
    QList<XYChart *> m_scatterCharts;
    QStringList m_comparisonTags; // the tags of m_comparisons, same order
    int m_gridColumns = 1;
    bool m_wide = false; // the page is kTwoColumnsFromPx wide or more
};

} // namespace plumb
