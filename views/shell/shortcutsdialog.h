// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QLineEdit;
class QTreeWidget;

namespace plumb {

// Help > Keyboard Shortcuts: every entry of shortcutTable(), grouped by menu or widget, with a
// filter that matches the action's text, its keys and its group.
class ShortcutsDialog final : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(QWidget *parent = nullptr);

    void setFilter(const QString &text);
    [[nodiscard]] QTreeWidget *list() const { return m_list; }
    // Entries shown with the current filter.
    [[nodiscard]] int visibleCount() const;

private:
    QLineEdit *m_filter;
    QTreeWidget *m_list;
};

} // namespace plumb
