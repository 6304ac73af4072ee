// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "backgroundanalysis.h"
#include "charts/histogramstepschart.h"
#include "experiments/experimentview.h"
#include "store/experimentreader.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace plumb {

// The Histograms page of the Experiments tab: the selected runs' histogram tags in a list (with how
// many of the runs logged each), and one HistogramStepsChart of the tag chosen, every run that
// logged it in its colour (the Scalars page's): offset (ridge), overlay or distribution bands.
// Restarts: by default what TensorBoard shows (at each step the latest segment that reached it,
// latestSegmentView), else every segment's histograms. Export PNG/PDF from the button or the
// chart's context menu.
//
// The histograms of the chosen tag are read on a worker thread with a Reader connection of its own,
// and kept per (run, tag) while the tag stays chosen and their count unchanged; results of
// superseded requests are dropped. A mode or restart change redraws from memory.
class HistogramsPage final : public ExperimentView {
    Q_OBJECT
public:
    explicit HistogramsPage(QWidget *parent = nullptr);
    ~HistogramsPage() override;

    void setSelection(const QString &workspacePath, const QList<int64_t> &runIds) override;

    // Histogram tags of the selected runs (sorted), and the one charted.
    [[nodiscard]] QStringList tags() const { return m_tags; }
    [[nodiscard]] QString currentTag() const { return m_tag; }
    void setCurrentTag(const QString &tag);
    void setMode(HistogramStepsChart::Mode mode);
    void setEverySegment(bool every);
    // The message shown instead of the chart (no runs, no histograms, an error), or empty.
    [[nodiscard]] QString hint() const;
    // Writes the chart: PNG or PDF by the suffix; false when nothing is charted or it cannot be written.
    [[nodiscard]] bool exportTo(const QString &path) const;

    [[nodiscard]] HistogramStepsChart *chart() const { return m_chart; }
    [[nodiscard]] QListWidget *tagList() const { return m_tagList; }
    [[nodiscard]] QListWidget *runLegend() const { return m_legend; }
    [[nodiscard]] QComboBox *modeBox() const { return m_mode; }
    [[nodiscard]] QCheckBox *everySegmentBox() const { return m_everySegment; }

    using Histograms = std::shared_ptr<const std::vector<StepHistogram>>;
    struct Result {
        QString error;
        QHash<int64_t, QString> runNames;
        std::vector<SeriesSummary> series; // histogram series of the selected runs
        QString tag; // the tag charted
        QHash<QPair<int64_t, int64_t>, Histograms> histograms; // newly read, by (run, key id)
    };

Q_SIGNALS:
    // After the page shows a new selection or tag (or says why it shows none).
    void loaded();

private:
    void request();
    void display(const Result &result);
    void fillTagList();
    void fillLegend();
    void rebuildChart();
    void exportDialog();

    QString m_workspacePath;
    QList<int64_t> m_runIds;
    BackgroundAnalysis m_analysis; // a newer request or Cancel stops the one running
    QString m_error;
    QHash<int64_t, QString> m_runNames;
    std::vector<SeriesSummary> m_series;
    QStringList m_tags;
    QString m_tag; // kept across selections while the runs have it
    QHash<QPair<int64_t, int64_t>, Histograms> m_histograms; // of m_tag only

    QComboBox *m_mode;
    QCheckBox *m_everySegment;
    QPushButton *m_export;
    QLineEdit *m_tagFilter;
    QListWidget *m_tagList;
    QListWidget *m_legend;
    QLabel *m_hint;
    HistogramStepsChart *m_chart;
};

} // namespace plumb
