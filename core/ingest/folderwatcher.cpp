// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/folderwatcher.h"

#include "ingest/importrunner.h"

#include <QFileInfo>

namespace plumb {

namespace {
constexpr int kDefaultIntervalMs = 2000;
} // namespace

FolderWatcher::FolderWatcher(QObject *parent)
    : QObject(parent)
{
    m_timer.setInterval(kDefaultIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        const QStringList changed = poll();
        if (!changed.isEmpty())
            Q_EMIT filesChanged(changed);
    });
}

void FolderWatcher::watch(const QStringList &paths)
{
    m_paths = paths;
    m_seen.clear();
    m_timer.start();
    QTimer::singleShot(0, this, [this] {
        if (!isWatching())
            return;
        const QStringList changed = poll();
        if (!changed.isEmpty())
            Q_EMIT filesChanged(changed);
    });
}

void FolderWatcher::stop()
{
    m_timer.stop();
    m_paths.clear();
    m_seen.clear();
}

QStringList FolderWatcher::poll()
{
    QStringList changed;
    QHash<QString, Seen> now;
    for (const QString &file : ImportRunner::expand(m_paths, m_hiddenFolders)) {
        const QFileInfo info(file);
        if (!info.exists())
            continue; // a single file that was removed, or a link to nothing
        const Seen s { info.size(), info.lastModified() };
        const auto before = m_seen.constFind(file);
        if (before == m_seen.cend() || before->size != s.size || before->modified != s.modified)
            changed << file;
        now.insert(file, s);
    }
    m_seen = std::move(now);
    return changed;
}

} // namespace plumb
