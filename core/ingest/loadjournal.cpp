// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/loadjournal.h"

#include "store/filesystem.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QElapsedTimer>
#include <QFile>
#include <QThread>

#include <fcntl.h>
#include <unistd.h>

namespace plumb {

bool syncPath(const QString &path, bool folder)
{
    const int fd
        = ::open(QFile::encodeName(path).constData(), (folder ? O_DIRECTORY : 0) | O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::fsync(fd) == 0;
    ::close(fd);
    return ok;
}

EarlyWriteback::EarlyWriteback(const QString &path)
{
#ifdef __linux__
    m_fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (m_fd >= 0)
        m_thread = std::thread([this] { loop(); });
#else
    Q_UNUSED(path);
#endif
}

EarlyWriteback::~EarlyWriteback()
{
    if (m_thread.joinable()) {
        {
            const std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
        m_thread.join();
    }
    if (m_fd >= 0)
        ::close(m_fd);
}

void EarlyWriteback::loop()
{
#ifdef __linux__
    std::unique_lock lock(m_mutex);
    while (!m_wake.wait_for(lock, std::chrono::milliseconds(100), [this] { return m_stop; }))
        ::sync_file_range(m_fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
}

FirstLoadJournal::FirstLoadJournal(Workspace &ws)
    : m_ws(ws)
{
    SqliteDb &db = ws.db();
    if (fileSystemOf(ws.path()).network || db.queryInt("SELECT EXISTS (SELECT 1 FROM source)") != 0)
        return;
    // SQLite leaves the log only when no other connection has the file open. The window's panels read a
    // workspace it has just opened for a few milliseconds: worth a short wait, not a long one.
    db.setBusyWait(std::chrono::milliseconds(0));
    QElapsedTimer waited;
    waited.start();
    for (;;) {
        try {
            SqliteStmt mode(db, "PRAGMA journal_mode = DELETE");
            m_active = mode.step() && mode.columnText(0) == QLatin1String("delete");
        } catch (const SqlError &) {
        }
        if (m_active || waited.elapsed() >= kWaitMs)
            break;
        QThread::msleep(10);
    }
    if (!m_active)
        return;
    db.exec("PRAGMA synchronous = FULL"); // a rollback journal's durable setting (a sync or two more)
    m_writeback.emplace(ws.path()); // the commit's sync then waits only for the last pages
}

FirstLoadJournal::~FirstLoadJournal()
{
    if (!m_active)
        return;
    m_writeback.reset();
    try {
        m_ws.db().setBusyWait(Workspace::writeWait());
        Workspace::applyJournal(m_ws.db(), fileSystemOf(m_ws.path()));
    } catch (const SqlError &e) {
        // The next writer to open the workspace switches it back.
        qWarning("plumb: %s stays in rollback journal mode for now: %s", qPrintable(m_ws.path()),
            qPrintable(e.message()));
    }
}

} // namespace plumb
