// SPDX-License-Identifier: GPL-3.0-or-later
#include "goodput/goodputpanel.h"

#include "backgroundanalysis.h"
#include "charts/goodputbreakdownchart.h"
#include "charts/goodputtimelinechart.h"
#include "charts/goodputtrendchart.h"
#include "figurerow.h"
#include "goodput/goodputbreakdownmodel.h"
#include "tableexport.h"
#include "text/textformat.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPdfWriter>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace plumb {

namespace {

QString percent(double share)
{
    return QStringLiteral("%1%").arg(100 * share, 0, 'f', 1);
}

} // namespace

GoodputPanel::GoodputPanel(QWidget *parent)
    : QWidget(parent)
    , m_runBox(new QComboBox)
    , m_export(new QPushButton(tr("Export…")))
    , m_status(new QLabel)
    , m_summary(new QLabel)
    , m_advice(new QLabel)
    , m_empty(new QLabel)
    , m_content(new QWidget)
    , m_timeline(new GoodputTimelineChart)
    , m_breakdown(new GoodputBreakdownChart)
    , m_trend(new GoodputTrendChart)
    , m_model(new GoodputBreakdownModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView)
{
    m_runBox->setAccessibleName(tr("Job"));
    m_runBox->setMinimumContentsLength(28);
    m_export->setToolTip(tr("Save this tab as PNG or PDF"));
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Job:")));
    top->addWidget(m_runBox);
    top->addWidget(m_status);
    top->addStretch(1);
    top->addWidget(m_export);

    // "Computing… Cancel" while the analysis runs; "Compute again" after a cancel.
    m_status->setAccessibleName(tr("Goodput analysis"));
    m_status->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_status, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link == QLatin1String("cancel")) {
            if (m_analysis.cancel())
                m_status->setText(tr("Cancelled. <a href=\"compute\">Compute again</a>"));
        } else if (link == QLatin1String("compute")) {
            request(m_runId);
        }
    });
    m_summary->setTextFormat(Qt::RichText);
    styleConclusion(m_advice);
    m_advice->setAccessibleName(tr("Largest badput"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setText(
        tr("No job to show. Import a job lifecycle log (JSON lines as ml-goodput-measurement writes them, "
           "or Plumb's own events: see the README), or an experiment log with wall times per step."));

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(GoodputBreakdownModel::SortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(GoodputBreakdownModel::CategoryColumn, Qt::AscendingOrder);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false); // the remedy's whole sentence is its tooltip
    m_table->setAccessibleName(tr("Badput breakdown"));
    installTableExportActions(
        m_table, [this](const QList<int> &rows) { return m_model->records(rows); },
        QStringLiteral("goodput-breakdown"));

    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_breakdown);
    leftLayout->addWidget(m_table, 1);
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_trend);
    split->addWidget(left);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({ 400, 600 });

    auto *content = new QVBoxLayout(m_content);
    content->setContentsMargins(0, 0, 0, 0);
    content->addWidget(m_summary);
    content->addWidget(m_advice);
    content->addWidget(m_timeline);
    content->addWidget(split, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_empty, 1);
    layout->addWidget(m_content, 1);
    m_content->hide();

    connect(m_runBox, &QComboBox::activated, this, [this](int index) {
        if (index >= 0 && size_t(index) < m_runs.size())
            selectRun(m_runs[size_t(index)].id);
    });
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Goodput"),
            QStringLiteral("goodput.png"), tr("PNG image (*.png);;PDF document (*.pdf)"));
        if (!path.isEmpty())
            exportTo(path);
    });
}

GoodputPanel::~GoodputPanel() = default;

void GoodputPanel::setWorkspace(const QString &workspacePath)
{
    if (workspacePath != m_workspacePath)
        m_runId = -1;
    m_workspacePath = workspacePath;
    request(m_runId);
}

void GoodputPanel::selectRun(int64_t runId)
{
    m_runId = runId;
    request(runId);
}

void GoodputPanel::request(int64_t runId)
{
    if (m_workspacePath.isEmpty())
        return;
    m_status->setText(tr("Computing… <a href=\"cancel\">Cancel</a>"));
    m_analysis.start<Result>(
        this, m_workspacePath,
        [runId](Workspace &ws, Result &r) {
            r.runs = goodputRuns(ws);
            int64_t run = -1;
            for (const GoodputRun &g : r.runs)
                if (g.id == runId)
                    run = runId;
            if (run < 0 && !r.runs.empty())
                run = r.runs.front().id;
            if (run >= 0)
                r.report = computeGoodput(ws, run);
        },
        [this](const Result &r) { apply(r); });
}

void GoodputPanel::apply(const Result &r)
{
    m_status->clear();
    m_runs = r.runs;
    m_report = r.report;
    m_runId = r.report.runId > 0 ? r.report.runId : -1;
    m_runBox->clear();
    for (const GoodputRun &g : m_runs) {
        m_runBox->addItem(tr("%1  %2  (%3)")
                              .arg(g.id)
                              .arg(g.name, g.lifecycle ? tr("lifecycle log") : tr("experiment log")));
        if (g.id == m_runId)
            m_runBox->setCurrentIndex(m_runBox->count() - 1);
    }
    const bool show = m_report.valid();
    m_content->setVisible(show);
    m_empty->setVisible(!show);
    if (!r.error.isEmpty())
        m_empty->setText(tr("Cannot read the workspace: %1").arg(r.error));
    else if (!show && m_runId > 0)
        m_empty->setText(tr("Goodput cannot be computed for this job: %1").arg(m_report.problem));
    m_export->setEnabled(show);

    const GoodputReport &g = m_report;
    QString row
        = figureCell(tr("Goodput"), percent(g.goodput), tr("of %1 elapsed").arg(spanText(g.elapsedNs)))
        + figureCell(tr("Scheduling goodput"), percent(g.schedulingGoodput), tr("resources there"))
        + figureCell(tr("Runtime goodput"), percent(g.runtimeGoodput), tr("productive while there"))
        + figureCell(tr("Program goodput"), g.programGoodput ? percent(*g.programGoodput) : tr("n/a"),
            g.programGoodput ? tr("model FLOPs / peak") : tr("give FLOPs per step and peak"))
        + figureCell(tr("Disruptions"), QString::number(g.disruptions),
            tr("%1 steps kept, %2 redone").arg(text::count(g.productiveSteps), text::count(g.wastedSteps)));
    if (g.idealStepNs > 0)
        row += figureCell(
            tr("Ideal step"), spanText(g.idealStepNs), tr("deviation %1").arg(percent(g.stepTimeDeviation)));
    m_summary->setText(
        QStringLiteral("<table><tr>%1</tr></table><span style='color:gray'>%2 · %3 to %4</span>")
            .arg(row, g.basis.toHtmlEscaped(), text::dateTime(g.startNs), text::dateTime(g.endNs)));
    m_advice->setText(goodputAdvice(g));
    m_advice->setVisible(!m_advice->text().isEmpty());
    m_timeline->setReport(g);
    m_breakdown->setReport(g);
    m_trend->setReport(g);
    m_model->setReport(g);
    m_table->resizeColumnsToContents();
    Q_EMIT loaded();
}

QString GoodputPanel::adviceText() const
{
    return m_advice->text();
}

bool GoodputPanel::exportTo(const QString &path)
{
    if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
        QPdfWriter pdf(path);
        pdf.setTitle(tr("Goodput of %1").arg(m_report.runName));
        pdf.setPageSize(QPageSize(QSizeF(width(), height()), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(72);
        QPainter painter;
        if (!painter.begin(&pdf))
            return false;
        render(&painter);
        return painter.end();
    }
    return grab().save(path, "PNG");
}

} // namespace plumb
