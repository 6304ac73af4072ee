// SPDX-License-Identifier: GPL-3.0-or-later
#include "tabularimportdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace plumb {

namespace {
const ColumnRole kRoles[] = { ColumnRole::Metric, ColumnRole::Step, ColumnRole::WallTime, ColumnRole::Run,
    ColumnRole::Key, ColumnRole::Value, ColumnRole::Param, ColumnRole::Latency, ColumnRole::Ttft,
    ColumnRole::Itl, ColumnRole::InputTokens, ColumnRole::OutputTokens, ColumnRole::Status, ColumnRole::Model,
    ColumnRole::Endpoint, ColumnRole::Ignore };
}

TabularImportDialog::TabularImportDialog(const QString &path, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Import %1").arg(QFileInfo(path).fileName()));
    const TabularPreview p = previewTabular(path, kPreviewRows);
    m_layout = p.layout;

    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(p.error.isEmpty()
            ? tr("Each column's role, as detected from the first rows. Change a role with the box above its "
                 "column.")
            : p.error);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    const int columns = int(m_layout.columns.size());
    m_table = new QTableWidget(int(p.rows.size()) + 1, columns, this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    QStringList headers;
    for (const auto &c : m_layout.columns)
        headers << c.name;
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setVerticalHeaderLabels(QStringList { tr("role") });
    for (int c = 0; c < columns; ++c) {
        auto *box = new QComboBox(m_table);
        for (const ColumnRole r : kRoles)
            box->addItem(roleName(r), int(r));
        const auto &col = m_layout.columns[size_t(c)];
        box->setCurrentIndex(box->findData(int(col.role)));
        if (col.role == ColumnRole::WallTime)
            box->setToolTip(tr("wall time in %1").arg(timeUnitName(col.timeUnit)));
        connect(box, &QComboBox::currentIndexChanged, this, [this, c, box] {
            m_layout.columns[size_t(c)].role = ColumnRole(box->currentData().toInt());
            updateProblem();
        });
        m_table->setCellWidget(0, c, box);
        m_boxes.push_back(box);
    }
    for (size_t r = 0; r < p.rows.size(); ++r)
        for (int c = 0; c < columns && c < p.rows[r].size(); ++c)
            m_table->setItem(int(r) + 1, c, new QTableWidgetItem(p.rows[r][c]));
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->resizeColumnsToContents();
    layout->addWidget(m_table);

    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    updateProblem();
    if (!p.error.isEmpty() || m_layout.format == TabularLayout::Format::None)
        buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    resize(900, 500);
}

ImportOptions TabularImportDialog::options() const
{
    ImportOptions o;
    o.tabular = m_layout.asOverrides();
    return o;
}

QComboBox *TabularImportDialog::roleBox(int c) const
{
    return c >= 0 && size_t(c) < m_boxes.size() ? m_boxes[size_t(c)] : nullptr;
}

void TabularImportDialog::updateProblem()
{
    const QString problem = m_layout.problem();
    m_problem->setText(
        problem.isEmpty() ? QString() : tr("Cannot import with these roles: %1.").arg(problem));
    if (auto *buttons = findChild<QDialogButtonBox *>())
        buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

} // namespace plumb
