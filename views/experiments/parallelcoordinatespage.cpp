// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiments/parallelcoordinatespage.h"

#include "analysis/configdiff.h"
#include "backgroundanalysis.h"
#include "charts/parallelcoordinateschart.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QVBoxLayout>

namespace plumb {

namespace {

constexpr int kSpecMetricRole = Qt::UserRole;
constexpr int kSpecKeyRole = Qt::UserRole + 1;
const QString kLastExportDirKey = QStringLiteral("lastChartExportDir");

QString specId(bool metric, const QString &key)
{
    return (metric ? QStringLiteral("m:") : QStringLiteral("p:")) + key;
}

} // namespace

ParallelCoordinatesPage::ParallelCoordinatesPage(QWidget *parent)
    : ExperimentView(parent)
    , m_metric(new QComboBox(this))
    , m_statistic(new QComboBox(this))
    , m_clear(new QPushButton(tr("C&lear Brushes"), this))
    , m_export(new QPushButton(tr("E&xport…"), this))
    , m_status(new QLabel(this))
    , m_chart(new ParallelCoordinatesChart(this))
    , m_axes(new QListWidget(this))
    , m_keptLabel(new QLabel(this))
    , m_kept(new QListWidget(this))
{
    m_metric->setAccessibleName(tr("Metric the lines are coloured by"));
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_metric->setMinimumContentsLength(16);
    m_statistic->addItem(tr("last value"), int(MetricStatistic::Last));
    m_statistic->addItem(tr("best value"), int(MetricStatistic::Best));
    m_statistic->setAccessibleName(tr("Which value of each run's metrics"));
    m_statistic->setToolTip(
        tr("Each run's last value of a metric, or its best one (the minimum of a loss-like "
           "metric, the maximum of an accuracy-like one)"));
    m_clear->setToolTip(tr("Clear every brush (or double-click the chart)"));
    m_clear->setEnabled(false);
    m_export->setToolTip(tr("Save the chart as PNG or PDF"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_axes->setAccessibleName(tr("Axes"));
    m_axes->setToolTip(tr("Check the params and metrics to show as axes; drag to reorder"));
    m_axes->setDragDropMode(QAbstractItemView::InternalMove);
    m_kept->setAccessibleName(tr("Runs inside the brushes"));
    m_kept->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_keptLabel->setTextFormat(Qt::PlainText);

    auto *top = new QHBoxLayout;
    auto *colourLabel = new QLabel(tr("&Colour by:"), this);
    colourLabel->setBuddy(m_metric);
    top->addWidget(colourLabel);
    top->addWidget(m_metric);
    top->addWidget(m_statistic);
    top->addWidget(m_status, 1);
    top->addWidget(m_clear);
    top->addWidget(m_export);

    auto *side = new QWidget(this);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    auto *axesLabel = new QLabel(tr("&Axes:"), side);
    axesLabel->setBuddy(m_axes);
    sideLayout->addWidget(axesLabel);
    sideLayout->addWidget(m_axes, 3);
    sideLayout->addWidget(m_keptLabel);
    sideLayout->addWidget(m_kept, 2);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_chart);
    splitter->addWidget(side);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 0);
    splitter->setSizes({ 800, 220 });
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] {
        if (m_filling)
            return;
        const bool known = metricDirection(m_metric->currentData().toString()) != MetricDirection::Unknown;
        if (!known)
            m_statistic->setCurrentIndex(0);
        m_statistic->setEnabled(known);
        fillAxisList();
        rebuild();
    });
    connect(m_statistic, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_filling)
            rebuild();
    });
    connect(m_axes, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        if (m_filling)
            return;
        const QString id = specId(item->data(kSpecMetricRole).toBool(), item->data(kSpecKeyRole).toString());
        m_userAxes.removeAll(id);
        m_userUnchecked.removeAll(id);
        (item->checkState() == Qt::Checked ? m_userAxes : m_userUnchecked) << id;
        rebuild();
    });
    connect(m_axes->model(), &QAbstractItemModel::rowsMoved, this, [this] { rebuild(); });
    connect(m_chart, &ParallelCoordinatesChart::brushesChanged, this, &ParallelCoordinatesPage::updateKept);
    connect(m_clear, &QPushButton::clicked, m_chart, &ParallelCoordinatesChart::clearBrushes);
    connect(m_export, &QPushButton::clicked, this, &ParallelCoordinatesPage::exportChart);
    display({});
}

ParallelCoordinatesPage::~ParallelCoordinatesPage() = default;

void ParallelCoordinatesPage::setSelection(const QString &workspacePath, const QList<int64_t> &runIds)
{
    m_workspacePath = workspacePath;
    m_runIds = runIds;
    m_analysis.cancel();
    if (workspacePath.isEmpty() || runIds.isEmpty()) {
        display({});
        return;
    }
    m_status->setText(tr("Reading %n run(s)…", nullptr, int(runIds.size())));
    m_analysis.start<Result>(
        this, workspacePath, [runIds](Workspace &ws, Result &r) { r.table = readTrialTable(ws, runIds); },
        [this](const Result &r) { display(r); });
}

void ParallelCoordinatesPage::display(const Result &result)
{
    m_table = result.table;
    const QString previous = m_metric->currentData().toString();
    m_filling = true;
    m_metric->clear();
    m_metric->addItem(tr("(none)"), QString());
    for (const QString &key : m_table.metricKeys())
        m_metric->addItem(key, key);
    const int keep = previous.isEmpty() ? -1 : m_metric->findData(previous);
    const QString fallback = m_table.defaultMetric();
    m_metric->setCurrentIndex(keep >= 0 ? keep : std::max(0, m_metric->findData(fallback)));
    const bool known = metricDirection(m_metric->currentData().toString()) != MetricDirection::Unknown;
    if (!known)
        m_statistic->setCurrentIndex(0);
    m_statistic->setEnabled(known);
    m_filling = false;
    fillAxisList();
    rebuild();
    if (!result.error.isEmpty())
        m_status->setText(tr("The runs could not be read: %1").arg(result.error));
    else if (m_table.size() == 0)
        m_status->setText(tr("Select runs in the runs table to compare their params and metrics."));
    else
        m_status->setText(
            tr("%n run(s). Drag along an axis to keep a range; click it to clear.", nullptr, m_table.size()));
    Q_EMIT loaded();
}

void ParallelCoordinatesPage::fillAxisList()
{
    // Default: the params that vary, then the colour metric; the user's own choices win.
    const QString colour = m_metric->currentData().toString();
    const QStringList varying = ParallelCoordinatesGeometry::varyingParams(m_table);
    QStringList previousOrder;
    for (int i = 0; i < m_axes->count(); ++i)
        previousOrder << specId(
            m_axes->item(i)->data(kSpecMetricRole).toBool(), m_axes->item(i)->data(kSpecKeyRole).toString());
    m_filling = true;
    m_axes->clear();
    struct Entry {
        QString id, key;
        bool metric, checked;
    };
    std::vector<Entry> entries;
    for (const QString &key : m_table.paramKeys()) {
        const QString id = specId(false, key);
        const bool checked
            = m_userAxes.contains(id) || (!m_userUnchecked.contains(id) && varying.contains(key));
        entries.push_back({ id, key, false, checked });
    }
    for (const QString &key : m_table.metricKeys()) {
        const QString id = specId(true, key);
        const bool checked = m_userAxes.contains(id) || (!m_userUnchecked.contains(id) && key == colour);
        entries.push_back({ id, key, true, checked });
    }
    // Checked axes first (in the order they had), then the rest: params, then metrics.
    std::stable_sort(entries.begin(), entries.end(), [&previousOrder](const Entry &a, const Entry &b) {
        if (a.checked != b.checked)
            return a.checked;
        if (!a.checked)
            return false;
        const qsizetype ia = previousOrder.indexOf(a.id), ib = previousOrder.indexOf(b.id);
        if ((ia < 0) != (ib < 0))
            return ia >= 0;
        return ia < ib;
    });
    for (const Entry &e : entries) {
        auto *item = new QListWidgetItem(e.metric ? tr("%1 (metric)").arg(e.key) : e.key, m_axes);
        item->setFlags(
            Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable | Qt::ItemIsDragEnabled);
        item->setCheckState(e.checked ? Qt::Checked : Qt::Unchecked);
        item->setData(kSpecMetricRole, e.metric);
        item->setData(kSpecKeyRole, e.key);
        if (e.metric) {
            QFont f = item->font();
            f.setItalic(true);
            item->setFont(f);
        }
    }
    m_filling = false;
}

QList<ParallelCoordinatesGeometry::AxisSpec> ParallelCoordinatesPage::chosenAxes() const
{
    QList<ParallelCoordinatesGeometry::AxisSpec> out;
    for (int i = 0; i < m_axes->count(); ++i) {
        const QListWidgetItem *item = m_axes->item(i);
        if (item->checkState() == Qt::Checked)
            out.push_back({ item->data(kSpecKeyRole).toString(), item->data(kSpecMetricRole).toBool() });
    }
    return out;
}

void ParallelCoordinatesPage::rebuild()
{
    const auto statistic = MetricStatistic(m_statistic->currentData().toInt());
    ParallelCoordinatesGeometry g = m_chart->geometryData();
    g.setData(m_table, chosenAxes(), statistic);
    g.setColorMetric(m_table, m_metric->currentData().toString(), statistic);
    QStringList names;
    for (const auto &r : m_table.runs)
        names << runLabel(r);
    m_chart->setGeometryData(g, names);
    m_shortNames = shortRunNames(m_table.runs);
    updateKept();
}

void ParallelCoordinatesPage::updateKept()
{
    const ParallelCoordinatesGeometry &g = m_chart->geometryData();
    m_clear->setEnabled(g.hasBrushes());
    m_kept->clear();
    const QList<int> kept = g.keptRuns();
    for (int run : kept) {
        auto *item = new QListWidgetItem(
            QStringLiteral("%1 %2").arg(m_table.runs[run].id).arg(m_shortNames.value(run)), m_kept);
        item->setToolTip(runLabel(m_table.runs[run]));
    }
    m_keptLabel->setText(g.hasBrushes()
            ? tr("Runs in the brushes: %1 of %2").arg(kept.size()).arg(g.runCount())
            : tr("Runs: %1 (drag along an axis to brush)").arg(g.runCount()));
}

void ParallelCoordinatesPage::exportChart()
{
    QSettings settings;
    const QString dir = settings.value(kLastExportDirKey, QDir::homePath()).toString();
    QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"),
        dir + QStringLiteral("/parallel-coordinates.png"), tr("PNG image (*.png);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".png");
    settings.setValue(kLastExportDirKey, QFileInfo(path).absolutePath());
    if (!m_chart->exportTo(path))
        QMessageBox::warning(this, tr("Export Chart"),
            tr("The chart could not be written to %1.").arg(QDir::toNativeSeparators(path)));
}

} // namespace plumb
