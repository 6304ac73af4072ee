// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <cstdint>

namespace plumb {

// Live mode's eyes: looks at the files under some folders (and single files) every few seconds and
// reports those that appeared or changed (size or modification time) since the last look. The
// first look reports every file, so that watching starts with an import of what is there; the
// ImportRunner then reads only what is new (already imported files are no-ops, a grown event file
// continues from where it stopped). Polling rather than inotify: it works the same on network file
// systems, where training jobs often write their logs, and costs one stat per file per look.
class FolderWatcher final : public QObject {
    Q_OBJECT
public:
    explicit FolderWatcher(QObject *parent = nullptr);

    // Folders are walked as ImportRunner::expand walks them (hidden entries skipped except these).
    void setHiddenFolders(const QStringList &names) { m_hiddenFolders = names; }
    void setIntervalMs(int ms) { m_timer.setInterval(ms); }
    [[nodiscard]] int intervalMs() const { return m_timer.interval(); }

    // Starts watching `paths` (replacing any earlier ones) and looks at once, from the event loop.
    void watch(const QStringList &paths);
    void stop();
    [[nodiscard]] bool isWatching() const { return !m_paths.isEmpty(); }
    [[nodiscard]] QStringList paths() const { return m_paths; }

    // One look now: the files that are new or changed since the last look, in import order.
    QStringList poll();

Q_SIGNALS:
    // Emitted after a timed look that found something.
    void filesChanged(const QStringList &files);

private:
    struct Seen {
        int64_t size = -1;
        QDateTime modified;
    };
    QStringList m_paths;
    QStringList m_hiddenFolders;
    QHash<QString, Seen> m_seen;
    QTimer m_timer;
};

} // namespace plumb
