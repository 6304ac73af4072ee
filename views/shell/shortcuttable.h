// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAction>
#include <QKeySequence>
#include <QList>
#include <QMenu>
#include <QString>

#include <vector>

namespace plumb {

// Every keyboard shortcut of the application, in one table that the menus (through makeAction())
// and Help > Keyboard Shortcuts read. An entry is either an action of the menus (context Window:
// the key works anywhere in the main window) or a key handled by one kind of widget while it has
// focus (context Timeline: the timeline view's own keys; context Table: every table's Copy actions).
// A key may appear in several widget contexts, but a Window key in no other context: Qt would find
// the two shortcuts ambiguous and fire neither.
struct ShortcutEntry {
    enum class Context { Window, Timeline, Table };

    QString id; // stable: the QAction's objectName, e.g. "file.open"
    QString group; // the menu or widget it belongs to, as the dialog groups it
    QString text; // menu text with its mnemonic (&), translated
    QList<QKeySequence> keys; // the first is shown in menus; empty: the action has no key
    Context context = Context::Window;
    bool frequent = false; // used often enough that it must have a key
};

[[nodiscard]] const std::vector<ShortcutEntry> &shortcutTable();
[[nodiscard]] const ShortcutEntry *findShortcut(const QString &id);
[[nodiscard]] QString contextName(ShortcutEntry::Context context);
// The keys of an entry as the user reads them ("Ctrl+O, Ctrl+R"), in the platform's notation.
[[nodiscard]] QString keysText(const ShortcutEntry &entry);

// A new action (parent `parent`) for the Window entry `id`: its objectName, text, shortcuts and
// the shortcut's context. An id not in the table is a programming error (asserted).
[[nodiscard]] QAction *makeAction(const QString &id, QObject *parent);

// makeAction() added to `menu`, its triggered() connected to `slot` of `receiver`.
template <typename Receiver, typename Slot>
QAction *addTableAction(QMenu *menu, const QString &id, const Receiver *receiver, Slot slot)
{
    QAction *action = makeAction(id, menu);
    menu->addAction(action);
    QObject::connect(action, &QAction::triggered, receiver, slot);
    return action;
}

} // namespace plumb
