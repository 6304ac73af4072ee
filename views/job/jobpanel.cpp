// SPDX-License-Identifier: GPL-3.0-or-later
#include "job/jobpanel.h"

#include "charts/rankheatmapchart.h"
#include "figurerow.h"
#include "job/jobranksmodel.h"
#include "tableexport.h"
#include "text/textformat.h"
#include "timeline/timescale.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace plumb {

namespace {

} // namespace

JobPanel::JobPanel(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel)
    , m_verdict(new QLabel)
    , m_empty(new QLabel)
    , m_content(new QWidget)
    , m_metric(new QComboBox)
    , m_doctor(new QPushButton(tr("Doctor")))
    , m_timeline(new QPushButton(tr("Timeline")))
    , m_model(new JobRanksModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView)
    , m_map(new RankHeatmapChart)
{
    m_summary->setTextFormat(Qt::RichText);
    styleConclusion(m_verdict);
    m_verdict->setAccessibleName(tr("The job's verdict"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setText(tr("No multi-rank job here. Import the folder of a job's rank traces, or open the "
                        "workspace that plumb merge wrote from a sharded import (docs/cluster.md)."));

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(JobRanksModel::SortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(JobRanksModel::RankColumn, Qt::AscendingOrder);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->setAccessibleName(tr("Ranks"));
    installTableExportActions(m_table, displayedRecords(m_table), QStringLiteral("job-ranks"));

    m_metric->addItems({ tr("Step time"), tr("Exposed communication"), tr("Input pipeline") });
    m_metric->setAccessibleName(tr("Heat map metric"));
    m_doctor->setToolTip(tr("The selected rank's Doctor (also: double-click it)"));
    m_timeline->setToolTip(tr("The selected rank's timeline, read from the shard that holds its events"));
    auto *tools = new QHBoxLayout;
    tools->addWidget(new QLabel(tr("Color by:")));
    tools->addWidget(m_metric);
    tools->addStretch(1);
    tools->addWidget(m_doctor);
    tools->addWidget(m_timeline);

    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addLayout(tools);
    rightLayout->addWidget(m_map, 1);
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_table);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({ 780, 360 });

    auto *content = new QVBoxLayout(m_content);
    content->setContentsMargins(0, 0, 0, 0);
    content->addWidget(m_summary);
    content->addWidget(m_verdict);
    content->addWidget(split, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_empty, 1);
    layout->addWidget(m_content, 1);
    m_content->hide();

    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] { showMap(); });
    connect(m_map, &RankHeatmapChart::rankClicked, this, [this](int64_t rank) {
        const QModelIndex source = m_model->index(m_model->rowOfRank(rank), 0);
        const QModelIndex row = m_proxy->mapFromSource(source);
        if (row.isValid()) {
            m_table->selectRow(row.row());
            m_table->scrollTo(row);
        }
    });
    const auto open = [this](bool timeline) {
        if (const JobRank *r = selectedRank(); r && r->traceId > 0)
            Q_EMIT timeline ? openTimeline(r->traceId) : openDoctor(r->traceId);
    };
    connect(m_doctor, &QPushButton::clicked, this, [open] { open(false); });
    connect(m_timeline, &QPushButton::clicked, this, [open] { open(true); });
    connect(m_table, &QTableView::doubleClicked, this, [open] { open(false); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const JobRank *r = selectedRank();
        m_doctor->setEnabled(r && r->traceId > 0);
        m_timeline->setEnabled(r && r->traceId > 0);
    });
    m_doctor->setEnabled(false);
    m_timeline->setEnabled(false);
}

JobPanel::~JobPanel() = default;

void JobPanel::setWorkspace(const QString &workspacePath)
{
    m_workspacePath = workspacePath;
    if (workspacePath.isEmpty())
        return;
    m_analysis.start<Result>(
        this, workspacePath, [](Workspace &ws, Result &r) { r.job = jobView(ws); },
        [this](const Result &r) { apply(r); });
}

const JobRank *JobPanel::selectedRank() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? nullptr : m_model->rankAt(m_proxy->mapToSource(rows.front()).row());
}

void JobPanel::apply(const Result &r)
{
    m_job = r.job;
    const bool show = hasJob();
    m_content->setVisible(show);
    m_empty->setVisible(!show);
    if (!r.error.isEmpty())
        m_empty->setText(tr("Cannot read the workspace: %1").arg(r.error));
    m_model->setJob(m_job);
    m_table->resizeColumnsToContents();
    if (show) {
        const JobView &j = m_job;
        QString row
            = figureCell(tr("Ranks"), QStringLiteral("%1 / %2").arg(j.mergedRanks()).arg(j.ranks.size()),
                  j.merged ? tr("%1, merged from shards").arg(j.name) : tr("%1, imported here").arg(j.name))
            + figureCell(tr("Steps"), QString::number(j.stepNames.size()))
            + figureCell(tr("Collectives"), text::count(j.collectives), tr("matched across ranks"));
        const int64_t straggler = j.comparison.straggler >= 0
            ? j.comparison.ranks[size_t(j.comparison.straggler)].rank
            : j.straggler;
        if (straggler >= 0)
            row += figureCell(tr("Straggler"), tr("rank %1").arg(straggler),
                j.straggler == straggler && !j.stepNames.empty()
                    ? tr("the others wait %1 a step")
                          .arg(formatDuration(j.stragglerWaitNs / int64_t(j.stepNames.size())))
                    : QString());
        m_summary->setText(QStringLiteral("<table><tr>%1</tr></table>").arg(row));
        m_verdict->setText(j.verdict);
        m_verdict->setVisible(!j.verdict.isEmpty());
        showMap();
    }
    Q_EMIT loaded();
}

void JobPanel::showMap()
{
    m_map->setJob(m_job, RankHeatmapChart::Metric(m_metric->currentIndex()));
}

} // namespace plumb
