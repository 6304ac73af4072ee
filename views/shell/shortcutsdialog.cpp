// SPDX-License-Identifier: GPL-3.0-or-later
#include "shell/shortcutsdialog.h"

#include "shell/shortcuttable.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace plumb {

namespace {

enum Column { TextColumn, KeysColumn, ContextColumn, ColumnCount };

QString plainText(QString text)
{
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    return text.replace(QStringLiteral("&&"), QStringLiteral("&")).remove(QChar(u'…'));
}

} // namespace

ShortcutsDialog::ShortcutsDialog(QWidget *parent)
    : QDialog(parent)
    , m_filter(new QLineEdit)
    , m_list(new QTreeWidget)
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_filter->setPlaceholderText(tr("Filter by action, key or menu"));
    m_filter->setAccessibleName(tr("Filter shortcuts"));
    m_filter->setClearButtonEnabled(true);
    auto *filterLabel = new QLabel(tr("&Filter:"));
    filterLabel->setBuddy(m_filter);

    m_list->setAccessibleName(tr("Keyboard shortcuts"));
    m_list->setColumnCount(ColumnCount);
    m_list->setHeaderLabels({ tr("Action"), tr("Keys"), tr("Where") });
    m_list->setRootIsDecorated(false);
    m_list->setAlternatingRowColors(true);
    m_list->setUniformRowHeights(true);
    QTreeWidgetItem *group = nullptr;
    for (const ShortcutEntry &e : shortcutTable()) {
        if (!group || group->text(TextColumn) != e.group) {
            group = new QTreeWidgetItem(m_list, { e.group });
            QFont bold = group->font(TextColumn);
            bold.setBold(true);
            group->setFont(TextColumn, bold);
            group->setFirstColumnSpanned(true);
            group->setFlags(Qt::ItemIsEnabled);
        }
        auto *item = new QTreeWidgetItem(group, { plainText(e.text), keysText(e), contextName(e.context) });
        item->setData(TextColumn, Qt::UserRole, e.id);
    }
    m_list->expandAll();
    m_list->header()->setSectionResizeMode(TextColumn, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(KeysColumn, QHeaderView::ResizeToContents);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_filter, &QLineEdit::textChanged, this, &ShortcutsDialog::setFilter);

    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(filterLabel);
    filterRow->addWidget(m_filter);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filterRow);
    layout->addWidget(m_list);
    layout->addWidget(buttons);
    setTabOrder(m_filter, m_list);
    resize(620, 560);
}

void ShortcutsDialog::setFilter(const QString &text)
{
    if (m_filter->text() != text)
        m_filter->setText(text);
    const QString needle = text.trimmed();
    for (int g = 0; g < m_list->topLevelItemCount(); ++g) {
        QTreeWidgetItem *group = m_list->topLevelItem(g);
        const bool groupMatches = group->text(TextColumn).contains(needle, Qt::CaseInsensitive);
        int shown = 0;
        for (int i = 0; i < group->childCount(); ++i) {
            QTreeWidgetItem *item = group->child(i);
            const bool match = needle.isEmpty() || groupMatches
                || item->text(TextColumn).contains(needle, Qt::CaseInsensitive)
                || item->text(KeysColumn).contains(needle, Qt::CaseInsensitive);
            item->setHidden(!match);
            shown += match;
        }
        group->setHidden(shown == 0);
    }
}

int ShortcutsDialog::visibleCount() const
{
    int n = 0;
    for (int g = 0; g < m_list->topLevelItemCount(); ++g)
        for (int i = 0; i < m_list->topLevelItem(g)->childCount(); ++i)
            n += !m_list->topLevelItem(g)->child(i)->isHidden();
    return n;
}

} // namespace plumb
