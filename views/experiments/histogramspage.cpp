// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiments/histogramspage.h"

#include "backgroundanalysis.h"
#include "charts/chartstyle.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSettings>
#include <QSplitter>
#include <QVBoxLayout>

namespace plumb {

namespace {

const QString kLastExportDirKey = QStringLiteral("lastChartExportDir");

} // namespace

HistogramsPage::HistogramsPage(QWidget *parent)
    : ExperimentView(parent)
    , m_mode(new QComboBox(this))
    , m_everySegment(new QCheckBox(tr("Ever&y segment"), this))
    , m_export(new QPushButton(tr("Expo&rt Chart…"), this))
    , m_tagFilter(new QLineEdit(this))
    , m_tagList(new QListWidget(this))
    , m_legend(new QListWidget(this))
    , m_hint(new QLabel(this))
    , m_chart(new HistogramStepsChart(QStringLiteral("histograms"), this))
{
    m_mode->addItem(tr("Offset"), int(HistogramStepsChart::Mode::Offset));
    m_mode->addItem(tr("Overlay"), int(HistogramStepsChart::Mode::Overlay));
    m_mode->addItem(tr("Distribution"), int(HistogramStepsChart::Mode::Distribution));
    m_mode->setAccessibleName(tr("Histogram mode"));
    m_mode->setToolTip(
        tr("Offset: each step's histogram above the next, the latest in front. Overlay: every step's "
           "histogram on one axis, older steps lighter. Distribution: percentile bands over steps, "
           "as TensorBoard's Distributions tab."));
    connect(m_mode, &QComboBox::currentIndexChanged, this,
        [this] { m_chart->setMode(HistogramStepsChart::Mode(m_mode->currentData().toInt())); });

    m_everySegment->setToolTip(
        tr("A job that restarted logs some steps again. By default, as TensorBoard, each step "
           "shows the latest segment that reached it; check to draw every segment's histograms "
           "(distribution bands break where a segment restarts)."));
    connect(m_everySegment, &QCheckBox::toggled, this, [this] { rebuildChart(); });

    m_export->setToolTip(tr("Save the chart as PNG or PDF"));
    connect(m_export, &QPushButton::clicked, this, &HistogramsPage::exportDialog);

    m_tagFilter->setPlaceholderText(tr("Filter tags"));
    m_tagFilter->setClearButtonEnabled(true);
    m_tagFilter->setAccessibleName(tr("Filter tags"));
    connect(m_tagFilter, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (int i = 0; i < m_tagList->count(); ++i) {
            QListWidgetItem *item = m_tagList->item(i);
            item->setHidden(
                !item->data(Qt::UserRole).toString().contains(text.trimmed(), Qt::CaseInsensitive));
        }
    });
    m_tagList->setAccessibleName(tr("Histogram tags"));
    m_tagList->setUniformItemSizes(true);
    m_tagList->setTextElideMode(Qt::ElideMiddle);
    connect(m_tagList, &QListWidget::currentItemChanged, this, [this](QListWidgetItem *item) {
        if (item)
            setCurrentTag(item->data(Qt::UserRole).toString());
    });
    m_legend->setAccessibleName(tr("Runs charted"));
    m_legend->setSelectionMode(QAbstractItemView::NoSelection);
    m_legend->setFocusPolicy(Qt::NoFocus);
    m_legend->setTextElideMode(Qt::ElideMiddle);
    m_legend->setUniformItemSizes(true);

    m_hint->setAlignment(Qt::AlignCenter);
    m_hint->setWordWrap(true);
    m_hint->setTextFormat(Qt::PlainText);

    auto *bar = new QHBoxLayout;
    auto *modeLabel = new QLabel(tr("Mod&e:"), this);
    modeLabel->setBuddy(m_mode);
    bar->addWidget(modeLabel);
    bar->addWidget(m_mode);
    bar->addSpacing(8);
    bar->addWidget(m_everySegment);
    bar->addStretch(1);
    bar->addWidget(m_export);

    auto *side = new QWidget(this);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    auto *tagsLabel = new QLabel(tr("T&ags"), side);
    tagsLabel->setBuddy(m_tagList);
    sideLayout->addWidget(tagsLabel);
    sideLayout->addWidget(m_tagFilter);
    sideLayout->addWidget(m_tagList, 3);
    sideLayout->addWidget(new QLabel(tr("Runs"), side));
    sideLayout->addWidget(m_legend, 2);

    auto *chartArea = new QWidget(this);
    auto *chartLayout = new QVBoxLayout(chartArea);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(m_hint, 1);
    chartLayout->addWidget(m_chart, 1);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(side);
    splitter->addWidget(chartArea);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 260, 700 });
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);
    rebuildChart();
}

HistogramsPage::~HistogramsPage() = default;

QString HistogramsPage::hint() const
{
    if (m_runIds.isEmpty() || m_workspacePath.isEmpty())
        return tr("Select runs in the table to see their histograms.");
    if (!m_error.isEmpty())
        return tr("The histograms could not be read: %1").arg(m_error);
    if (m_tags.isEmpty())
        return tr("The selected runs logged no histograms.");
    bool any = false;
    for (int i = 0; i < m_chart->runCount(); ++i)
        any = any || !m_chart->drawable(i).empty();
    if (!any)
        return tr("The histograms of %1 hold no values.").arg(m_tag);
    return {};
}

void HistogramsPage::setCurrentTag(const QString &tag)
{
    if (tag == m_tag)
        return;
    m_tag = tag;
    request();
}

void HistogramsPage::setMode(HistogramStepsChart::Mode mode)
{
    m_mode->setCurrentIndex(m_mode->findData(int(mode)));
}

void HistogramsPage::setEverySegment(bool every)
{
    m_everySegment->setChecked(every);
}

void HistogramsPage::setSelection(const QString &workspacePath, const QList<int64_t> &runIds)
{
    if (workspacePath != m_workspacePath)
        m_histograms.clear();
    m_workspacePath = workspacePath;
    m_runIds = runIds;
    if (m_runIds.isEmpty() || m_workspacePath.isEmpty()) {
        m_analysis.cancel();
        m_error.clear();
        m_series.clear();
        m_tags.clear();
        m_histograms.clear();
        fillTagList();
        fillLegend();
        rebuildChart();
        Q_EMIT loaded();
        return;
    }
    request();
}

void HistogramsPage::request()
{
    if (m_runIds.isEmpty() || m_workspacePath.isEmpty())
        return;
    // What is in memory, with its count: read again only what is missing or grew.
    QHash<QPair<int64_t, int64_t>, int64_t> cached;
    for (auto it = m_histograms.cbegin(); it != m_histograms.cend(); ++it)
        cached.insert(it.key(), int64_t(it.value()->size()));
    const QList<int64_t> runIds = m_runIds;
    const QString tag = m_tag;
    m_analysis.start<Result>(
        this, m_workspacePath,
        [runIds, tag, cached](Workspace &ws, Result &r) {
            ExperimentReader reader(ws);
            for (const ExperimentRunInfo &run : reader.runs())
                if (runIds.contains(run.id))
                    r.runNames.insert(run.id, run.name);
            QStringList tags;
            for (const SeriesSummary &s : reader.series(runIds))
                if (s.histogram) {
                    r.series.push_back(s);
                    if (!tags.contains(s.key))
                        tags << s.key;
                }
            tags.sort();
            r.tag = tags.contains(tag) ? tag : tags.value(0);
            for (const SeriesSummary &s : r.series) {
                const QPair<int64_t, int64_t> key(s.runId, s.keyId);
                if (s.key != r.tag || cached.value(key, -1) == s.points)
                    continue;
                r.histograms.insert(key,
                    std::make_shared<const std::vector<StepHistogram>>(reader.histograms(s.runId, s.keyId)));
            }
        },
        [this](const Result &r) { display(r); });
}

void HistogramsPage::display(const Result &r)
{
    m_error = r.error;
    m_runNames = r.runNames;
    m_series = r.series;
    m_tags.clear();
    for (const SeriesSummary &s : m_series)
        if (!m_tags.contains(s.key))
            m_tags << s.key;
    m_tags.sort();
    m_tag = r.tag;
    // Only the charted tag's histograms stay in memory.
    QSet<QPair<int64_t, int64_t>> wanted;
    for (const SeriesSummary &s : m_series)
        if (s.key == m_tag)
            wanted.insert({ s.runId, s.keyId });
    for (auto it = m_histograms.begin(); it != m_histograms.end();)
        it = wanted.contains(it.key()) ? std::next(it) : m_histograms.erase(it);
    for (auto it = r.histograms.cbegin(); it != r.histograms.cend(); ++it)
        m_histograms.insert(it.key(), it.value());
    fillTagList();
    fillLegend();
    rebuildChart();
    Q_EMIT loaded();
}

void HistogramsPage::fillTagList()
{
    const QSignalBlocker block(m_tagList);
    m_tagList->clear();
    QHash<QString, int> runsPerTag;
    for (const SeriesSummary &s : m_series)
        ++runsPerTag[s.key];
    const QString filter = m_tagFilter->text().trimmed();
    for (const QString &t : std::as_const(m_tags)) {
        const int runs = runsPerTag.value(t);
        // The run count only says something when several runs are selected.
        QString text = t;
        if (m_runIds.size() > 1)
            text = runs == 1 ? tr("%1 (1 run)").arg(t) : tr("%1 (%2 runs)").arg(t).arg(runs);
        auto *item = new QListWidgetItem(text, m_tagList);
        item->setData(Qt::UserRole, t);
        item->setToolTip(
            tr("%1: logged by %2 of the %3 selected runs").arg(t).arg(runs).arg(m_runIds.size()));
        item->setHidden(!filter.isEmpty() && !t.contains(filter, Qt::CaseInsensitive));
        if (t == m_tag)
            m_tagList->setCurrentItem(item);
    }
}

void HistogramsPage::fillLegend()
{
    m_legend->clear();
    QSet<int64_t> logged;
    for (const SeriesSummary &s : m_series)
        if (s.key == m_tag)
            logged.insert(s.runId);
    for (int i = 0; i < m_runIds.size(); ++i) {
        const QString name = m_runNames.value(m_runIds[i], QString::number(m_runIds[i]));
        auto *item = new QListWidgetItem(runSwatch(runColor(i)), name, m_legend);
        if (logged.contains(m_runIds[i]) || m_tag.isEmpty()) {
            item->setToolTip(name);
        } else {
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
            item->setToolTip(tr("%1 logged no histograms of %2").arg(name, m_tag));
        }
    }
}

void HistogramsPage::rebuildChart()
{
    QHash<int64_t, int64_t> keyOf; // run -> key id of the charted tag
    for (const SeriesSummary &s : m_series)
        if (s.key == m_tag)
            keyOf.insert(s.runId, s.keyId);
    const bool every = m_everySegment->isChecked();
    std::vector<HistogramRun> runs;
    for (int i = 0; i < m_runIds.size(); ++i) {
        const auto it = m_histograms.constFind({ m_runIds[i], keyOf.value(m_runIds[i], -1) });
        if (it == m_histograms.cend())
            continue;
        HistogramRun run;
        run.name = m_runNames.value(m_runIds[i], QString::number(m_runIds[i]));
        run.color = runColor(i);
        run.histograms = every ? **it : latestSegmentView(**it);
        runs.push_back(std::move(run));
    }
    m_chart->setTitle(m_tag);
    m_chart->setRuns(std::move(runs));
    const QString message = hint();
    m_hint->setText(message);
    m_hint->setVisible(!message.isEmpty());
    m_chart->setVisible(message.isEmpty());
    m_export->setEnabled(message.isEmpty());
}

bool HistogramsPage::exportTo(const QString &path) const
{
    return hint().isEmpty() && m_chart->exportTo(path);
}

void HistogramsPage::exportDialog()
{
    QSettings settings;
    const QString dir = settings.value(kLastExportDirKey, QDir::homePath()).toString();
    const QString name = QStringLiteral("histograms-") + QString(m_tag).replace(u'/', u'_');
    QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"),
        dir + u'/' + name + QStringLiteral(".png"), tr("PNG image (*.png);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".png");
    settings.setValue(kLastExportDirKey, QFileInfo(path).absolutePath());
    if (!exportTo(path))
        QMessageBox::warning(this, tr("Export Chart"),
            tr("The chart could not be written to %1.").arg(QDir::toNativeSeparators(path)));
}

} // namespace plumb
