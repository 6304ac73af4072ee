// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiments/configdiffpage.h"

#include "backgroundanalysis.h"
#include "experiments/configdiffmodel.h"
#include "tableexport.h"

#include <QAction>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace plumb {

namespace {

constexpr int kMaxRunColumnPx = 260; // a long value (a path) is elided, its tooltip holds it whole

} // namespace

ConfigDiffPage::ConfigDiffPage(QWidget *parent)
    : ExperimentView(parent)
    , m_status(new QLabel(this))
    , m_diffOnly(new QCheckBox(tr("&Diff only"), this))
    , m_copy(new QPushButton(tr("&Copy"), this))
    , m_exportCsv(new QPushButton(tr("Export &CSV…"), this))
    , m_model(new ConfigDiffModel(this))
    , m_table(new QTableView(this))
{
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_diffOnly->setChecked(true);
    m_diffOnly->setToolTip(tr("Show only the rows whose values differ between the runs"));
    m_copy->setToolTip(tr("Copy the selected rows (all when none is selected) as tab-separated text"));
    m_exportCsv->setToolTip(tr("Save every row shown as CSV (raw values, a row of changes per metric)"));

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setWordWrap(false);
    m_table->setAccessibleName(tr("Configuration diff"));
    installTableExportActions(
        m_table, [this](const QList<int> &rows) { return m_model->records(rows); },
        QStringLiteral("config-diff"));
    // The table's own Copy and Export CSV… actions, on buttons as well.
    const QList<QAction *> actions = m_table->actions();
    if (actions.size() >= 2) {
        connect(m_copy, &QPushButton::clicked, actions[0], &QAction::trigger);
        connect(m_exportCsv, &QPushButton::clicked, actions[1], &QAction::trigger);
    }

    connect(m_diffOnly, &QCheckBox::toggled, this, [this](bool on) {
        m_model->setDiffOnly(on);
        fitColumns();
        updateStatus();
    });

    auto *top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_diffOnly);
    top->addWidget(m_copy);
    top->addWidget(m_exportCsv);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    display({});
}

ConfigDiffPage::~ConfigDiffPage() = default;

void ConfigDiffPage::setSelection(const QString &workspacePath, const QList<int64_t> &runIds)
{
    m_workspacePath = workspacePath;
    m_analysis.cancel();
    if (workspacePath.isEmpty() || runIds.isEmpty()) {
        display({});
        return;
    }
    m_status->setText(tr("Reading %n run(s)…", nullptr, int(runIds.size())));
    m_analysis.start<Result>(
        this, workspacePath, [runIds](Workspace &ws, Result &r) { r.diff = diffConfigs(ws, runIds); },
        [this](const Result &r) { display(r); });
}

void ConfigDiffPage::display(const Result &result)
{
    m_error = result.error;
    m_model->setDiff(result.diff);
    fitColumns();
    updateStatus();
    Q_EMIT loaded();
}

void ConfigDiffPage::fitColumns()
{
    m_table->resizeColumnsToContents();
    for (int c = ConfigDiffModel::FirstRunColumn; c < m_model->columnCount(); ++c)
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), kMaxRunColumnPx));
    m_table->setColumnWidth(ConfigDiffModel::KeyColumn,
        std::min(m_table->columnWidth(ConfigDiffModel::KeyColumn), kMaxRunColumnPx));
}

void ConfigDiffPage::updateStatus()
{
    const ConfigDiff &d = m_model->diff();
    const bool any = !d.runs.isEmpty();
    m_copy->setEnabled(any);
    m_exportCsv->setEnabled(any);
    if (!m_error.isEmpty()) {
        m_status->setText(tr("The runs could not be read: %1").arg(m_error));
        return;
    }
    if (!any) {
        m_status->setText(
            tr("Select two or more runs in the runs table to compare their configurations; the first "
               "selected is the baseline."));
        return;
    }
    if (d.runs.size() == 1) {
        m_status->setText(tr("One run: %1. Select another to compare with it.").arg(runLabel(d.runs[0])));
        return;
    }
    const int differing = m_model->differingCount(), total = m_model->totalCount();
    QString text = tr("%1 runs, baseline %2: %3 of %4 rows differ.")
                       .arg(d.runs.size())
                       .arg(runLabel(d.runs[0]))
                       .arg(differing)
                       .arg(total);
    if (differing == 0)
        text += u' ' + tr("Their params and metrics are the same.");
    else
        text += u' ' + tr("≠ marks a difference; ▲/▼ the better run of a metric (higher/lower is better).");
    m_status->setText(text);
}

QString ConfigDiffPage::csv() const
{
    return toCsv(m_model->records(rowsAsShown(m_table, true)));
}

} // namespace plumb
