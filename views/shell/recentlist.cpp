// SPDX-License-Identifier: GPL-3.0-or-later
#include "shell/recentlist.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QMenu>
#include <QSettings>

namespace plumb {

RecentList::RecentList(QString settingsKey, int limit, QString emptyText)
    : m_key(std::move(settingsKey))
    , m_limit(limit)
    , m_emptyText(std::move(emptyText))
{
}

void RecentList::add(const QStringList &paths) const
{
    QSettings settings;
    QStringList recent = settings.value(m_key).toStringList();
    for (const QString &path : paths) {
        recent.removeAll(path);
        recent.prepend(path);
    }
    while (recent.size() > m_limit)
        recent.removeLast();
    settings.setValue(m_key, recent);
}

QStringList RecentList::paths() const
{
    return QSettings().value(m_key).toStringList();
}

void RecentList::fillMenu(QMenu *menu, const std::function<void(QAction *, const QString &)> &setUp) const
{
    menu->clear();
    const QStringList recent = paths();
    int n = 0;
    for (const QString &path : recent) {
        ++n;
        QString label = QDir::toNativeSeparators(path);
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        setUp(menu->addAction(n < 10 ? QStringLiteral("&%1 %2").arg(n).arg(label) : label), path);
    }
    if (recent.isEmpty()) {
        menu->addAction(m_emptyText)->setEnabled(false);
        return;
    }
    menu->addSeparator();
    const QString key = m_key;
    menu->addAction(
        QCoreApplication::translate("RecentList", "&Clear Menu"), menu, [key] { QSettings().remove(key); });
}

} // namespace plumb
