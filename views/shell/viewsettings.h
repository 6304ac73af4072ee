// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QAbstractButton;
class QAction;
class QHeaderView;
class QMainWindow;
class QSplitter;
class QTabWidget;
class QWidget;

namespace plumb {

// What the user arranged, remembered across sessions in QSettings under "view/<key>/…": a table's
// column widths, a splitter's sizes, the selected tab, a check box or checkable action, the main
// window's geometry and dock layout. A widget registers once, with a key unique in the application;
// registering restores the saved value at once, and from then on the user's changes are saved.
//
// Column widths are saved only when the user drags or double-clicks a header section, never when a
// view sizes its columns to their contents; and they are applied again after each model reset, so
// a view that sizes its columns on every load still shows the user's widths.
class ViewSettings final {
public:
    ViewSettings() = delete;

    static void remember(QHeaderView *header, const QString &key);
    static void remember(QSplitter *splitter, const QString &key);
    static void remember(QTabWidget *tabs, const QString &key);
    static void remember(QAbstractButton *checkable, const QString &key);
    static void remember(QAction *checkable, const QString &key);
    // Geometry and state (docks, toolbars) are restored now and saved when the window closes.
    static void remember(QMainWindow *window, const QString &key);

    // Every splitter, table or tree header, tab widget and check box under `root` that exists now,
    // each with the key "<prefix>/<class>#<n>" (n counts that class under root in creation order,
    // which is stable across sessions for widgets a panel builds in its constructor).
    static void rememberAll(QWidget *root, const QString &prefix);

    // True when the user has sized this header's columns (a view then skips sizing them itself).
    [[nodiscard]] static bool hasColumnWidths(const QString &key);
    [[nodiscard]] static QString settingsKey(const QString &key, const QString &what);
};

} // namespace plumb
