// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiments/importancepage.h"

#include "backgroundanalysis.h"
#include "charts/chartexport.h"
#include "charts/importancechart.h"
#include "experiments/importancemodel.h"
#include "tableexport.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace plumb {

namespace {

const QString kLastExportDirKey = QStringLiteral("lastChartExportDir");

} // namespace

ImportancePage::ImportancePage(QWidget *parent)
    : ExperimentView(parent)
    , m_metric(new QComboBox(this))
    , m_statistic(new QComboBox(this))
    , m_export(new QPushButton(tr("E&xport Chart…"), this))
    , m_status(new QLabel(this))
    , m_model(new ImportanceModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_chart(new ImportanceChart(this))
    , m_skipped(new QLabel(this))
{
    m_metric->setAccessibleName(tr("Metric"));
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_metric->setMinimumContentsLength(16);
    m_statistic->addItem(tr("last value"), int(MetricStatistic::Last));
    m_statistic->addItem(tr("best value"), int(MetricStatistic::Best));
    m_statistic->setAccessibleName(tr("Which value of each run's metric"));
    m_statistic->setToolTip(
        tr("Each run's last value of the metric, or its best one (the minimum of a loss-like "
           "metric, the maximum of an accuracy-like one)"));
    m_export->setToolTip(tr("Save the chart as PNG or PDF"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_skipped->setWordWrap(true);
    m_skipped->setTextFormat(Qt::PlainText);
    m_skipped->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ImportanceModel::SortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ImportanceModel::ImportanceColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setWordWrap(false);
    m_table->setAccessibleName(tr("Parameter importance"));
    installTableExportActions(
        m_table, [this](const QList<int> &rows) { return m_model->records(rows); },
        QStringLiteral("param-importance"));

    auto *top = new QHBoxLayout;
    auto *metricLabel = new QLabel(tr("&Metric:"), this);
    metricLabel->setBuddy(m_metric);
    top->addWidget(metricLabel);
    top->addWidget(m_metric);
    top->addWidget(m_statistic);
    top->addWidget(m_status, 1);
    top->addWidget(m_export);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_table, 1);
    leftLayout->addWidget(m_skipped);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(m_chart);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({ 480, 520 });
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] {
        if (m_filling)
            return;
        const bool known = metricDirection(m_metric->currentText()) != MetricDirection::Unknown;
        m_filling = true;
        if (!known)
            m_statistic->setCurrentIndex(0);
        m_statistic->setEnabled(known);
        m_filling = false;
        reload();
    });
    connect(m_statistic, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_filling)
            reload();
    });
    connect(m_export, &QPushButton::clicked, this, &ImportancePage::exportChart);
    display({});
}

ImportancePage::~ImportancePage() = default;

void ImportancePage::setSelection(const QString &workspacePath, const QList<int64_t> &runIds)
{
    m_workspacePath = workspacePath;
    m_runIds = runIds;
    reload();
}

void ImportancePage::reload()
{
    m_analysis.cancel();
    if (m_workspacePath.isEmpty() || m_runIds.isEmpty()) {
        display({});
        return;
    }
    const QList<int64_t> ids = m_runIds;
    const QString metric = m_metric->currentText();
    const auto statistic = MetricStatistic(m_statistic->currentData().toInt());
    m_status->setText(tr("Fitting %1 trees over %n run(s)…", nullptr, int(ids.size())).arg(kImportanceTrees));
    m_analysis.start<Result>(
        this, m_workspacePath,
        [ids, metric, statistic](Workspace &ws, Result &r) {
            const TrialTable table = readTrialTable(ws, ids);
            r.metrics = table.metricKeys();
            r.defaultMetric = table.defaultMetric();
            // The metric asked for while the runs still have it, else the default one.
            const QString chosen = r.metrics.contains(metric) ? metric : r.defaultMetric;
            const bool known = metricDirection(chosen) != MetricDirection::Unknown;
            if (!chosen.isEmpty())
                r.importance = paramImportance(table, chosen, known ? statistic : MetricStatistic::Last);
        },
        [this](const Result &r) { display(r); });
}

void ImportancePage::display(const Result &result)
{
    const ParamImportance &imp = result.importance;
    m_filling = true;
    m_metric->clear();
    m_metric->addItems(result.metrics);
    m_metric->setCurrentIndex(std::max(0, int(result.metrics.indexOf(imp.metric))));
    m_metric->setEnabled(!result.metrics.isEmpty());
    const bool known = metricDirection(imp.metric) != MetricDirection::Unknown;
    m_statistic->setCurrentIndex(known && imp.statistic == MetricStatistic::Best ? 1 : 0);
    m_statistic->setEnabled(known);
    m_filling = false;

    m_model->setImportance(imp);
    m_chart->setImportance(imp);
    m_export->setEnabled(!imp.entries.empty() && imp.reason.isEmpty());
    if (!result.error.isEmpty())
        m_status->setText(tr("The importance could not be computed: %1").arg(result.error));
    else if (m_runIds.isEmpty())
        m_status->setText(tr(
            "Select three or more runs in the runs table (runs of one search, with params and a metric)."));
    else if (result.metrics.isEmpty())
        m_status->setText(tr("The selected runs have no scalar metrics."));
    else if (!imp.reason.isEmpty())
        m_status->setText(tr("No importance: %1.").arg(imp.reason));
    else
        m_status->setText(
            tr("Over %n run(s) with a value of %1 and params: %2 params ranked.", nullptr, imp.runs)
                .arg(imp.metric)
                .arg(imp.entries.size()));
    QStringList skipped;
    for (const auto &s : imp.skipped)
        skipped << QStringLiteral("%1 (%2)").arg(s.key, s.reason);
    m_skipped->setText(
        skipped.isEmpty() ? QString() : tr("Not ranked: %1.").arg(skipped.join(QStringLiteral(", "))));
    m_skipped->setVisible(!skipped.isEmpty());
    Q_EMIT loaded();
}

void ImportancePage::exportChart()
{
    QSettings settings;
    const QString dir = settings.value(kLastExportDirKey, QDir::homePath()).toString();
    QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"),
        dir + QStringLiteral("/param-importance.png"), tr("PNG image (*.png);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".png");
    settings.setValue(kLastExportDirKey, QFileInfo(path).absolutePath());
    if (!plumb::exportChart(m_chart->plot(), path))
        QMessageBox::warning(this, tr("Export Chart"),
            tr("The chart could not be written to %1.").arg(QDir::toNativeSeparators(path)));
}

} // namespace plumb
