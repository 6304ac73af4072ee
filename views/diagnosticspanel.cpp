// SPDX-License-Identifier: GPL-3.0-or-later
#include "diagnosticspanel.h"

#include "diagnosticsmodel.h"
#include "sourcefilterproxy.h"
#include "text/textformat.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace plumb {

DiagnosticsPanel::DiagnosticsPanel(DiagnosticsModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new SourceFilterProxy(DiagnosticsModel::SourceIdRole, this))
    , m_sourceCombo(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_table(new QTableView(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(DiagnosticsModel::SortRole);

    auto *label = new QLabel(tr("&Source:"), this);
    label->setBuddy(m_sourceCombo);
    m_sourceCombo->setAccessibleName(tr("Diagnostics source filter"));
    m_sourceCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_sourceCombo->addItem(tr("All sources"), qint64(-1));

    m_table->setModel(m_proxy);
    m_table->setAccessibleName(tr("Diagnostics"));
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(DiagnosticsModel::SeverityColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);

    auto *top = new QHBoxLayout;
    top->addWidget(label);
    top->addWidget(m_sourceCombo);
    top->addStretch();
    top->addWidget(m_summary);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_table);

    connect(m_sourceCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_proxy->setSourceId(m_sourceCombo->itemData(index).toLongLong());
        updateSummary();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &DiagnosticsPanel::updateSummary);
    updateSummary();
}

void DiagnosticsPanel::setSources(const QList<SourceInfo> &sources)
{
    const int64_t current = currentSourceId();
    const QSignalBlocker blocker(m_sourceCombo);
    m_sourceCombo->clear();
    m_sourceCombo->addItem(tr("All sources"), qint64(-1));
    for (const SourceInfo &s : sources)
        m_sourceCombo->addItem(
            s.diagnostics ? tr("%1 (%2)").arg(s.name, text::count(s.diagnostics)) : s.name, qint64(s.id));
    const int index = m_sourceCombo->findData(qint64(current));
    m_sourceCombo->setCurrentIndex(index < 0 ? 0 : index);
    m_proxy->setSourceId(m_sourceCombo->currentData().toLongLong());
    updateSummary();
}

void DiagnosticsPanel::showSource(int64_t sourceId)
{
    const int index = m_sourceCombo->findData(qint64(sourceId));
    m_sourceCombo->setCurrentIndex(index < 0 ? 0 : index);
}

int64_t DiagnosticsPanel::currentSourceId() const
{
    return m_sourceCombo->currentIndex() < 0 ? -1 : m_sourceCombo->currentData().toLongLong();
}

int DiagnosticsPanel::visibleRowCount() const
{
    return m_proxy->rowCount();
}

void DiagnosticsPanel::focusTable()
{
    m_table->setFocus(Qt::ShortcutFocusReason);
}

void DiagnosticsPanel::updateSummary()
{
    // The rows shown change with the model and the filter: fit the short columns to them each time.
    for (int c = 0; c < DiagnosticsModel::MessageColumn; ++c)
        m_table->resizeColumnToContents(c);
    const int shown = m_proxy->rowCount();
    m_summary->setText(
        shown == 0 ? tr("No problems noted") : text::counted(shown, tr("diagnostic"), tr("diagnostics")));
}

} // namespace plumb
