// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

namespace plumb {

class Workspace;

// How an import's pages reach the disk: the syncs of a workspace built beside its path, and the journal
// of the first import into an empty one (ImportRunner::run).

// fsync() of a file or folder by path; false when it could not be opened or synced.
bool syncPath(const QString &path, bool folder);

// Asks the kernel, every 100 ms, to start writing the dirty pages of a file being built, so that the
// fsync that makes it durable waits only for the last of them: without it the whole file (57 MB for a
// million Nsight rows) was written at that fsync, 0.1 s or more with the CPUs idle. Starting writeback
// does not wait for it (SYNC_FILE_RANGE_WRITE) and guarantees nothing: the fsync still does.
class EarlyWriteback {
public:
    explicit EarlyWriteback(const QString &path);
    ~EarlyWriteback();
    EarlyWriteback(const EarlyWriteback &) = delete;
    EarlyWriteback &operator=(const EarlyWriteback &) = delete;

private:
    void loop();
    int m_fd = -1;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    std::thread m_thread;
};

// The first import into an empty workspace that no other connection has open (the one the window has
// just created, say) goes through a rollback journal instead of the write-ahead log, for as long as this
// object lives. A rollback journal keeps only the pages the file held before, a few of an empty
// workspace, and the new pages go straight into the file; the log takes each page once and then copies
// it into the file: for a 2 GB trace, 300 MB written twice, a second of the window's 7 s. A kill still
// rolls back (the journal is on disk, synced before the file is written). The price: a reader that opens
// the workspace meanwhile waits for the commit, where with the log it would have read the empty
// workspace at once. Where another connection keeps it open (past a short wait), SQLite refuses to
// leave the log, and the import goes through it as any other. Back to the log when done.
class FirstLoadJournal {
public:
    explicit FirstLoadJournal(Workspace &ws);
    ~FirstLoadJournal();
    FirstLoadJournal(const FirstLoadJournal &) = delete;
    FirstLoadJournal &operator=(const FirstLoadJournal &) = delete;

private:
    static constexpr int kWaitMs = 300;
    Workspace &m_ws;
    bool m_active = false;
    std::optional<EarlyWriteback> m_writeback;
};

} // namespace plumb
