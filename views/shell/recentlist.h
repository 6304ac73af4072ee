// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <functional>

class QAction;
class QMenu;

namespace plumb {

// A most-recent-first list of paths kept in QSettings under one key (File > Recent Workspaces, File >
// Recent Files), shown as a numbered menu ending in Clear Menu.
class RecentList final {
public:
    RecentList(QString settingsKey, int limit, QString emptyText);

    // Puts the paths first (the last one given first of all), dropping older copies and the oldest
    // entries past the limit.
    void add(const QStringList &paths) const;
    [[nodiscard]] QStringList paths() const;
    // Fills the menu afresh: "&1 path", "&2 path"… each passed to setUp (to enable it and connect
    // what it does), or the empty text, disabled; then a separator and Clear Menu.
    void fillMenu(QMenu *menu, const std::function<void(QAction *, const QString &path)> &setUp) const;

private:
    QString m_key;
    int m_limit;
    QString m_emptyText;
};

} // namespace plumb
