// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent>

#include <exception>
#include <memory>
#include <mutex>

namespace plumb {

// What the thread that started an analysis holds to stop it: cancel() interrupts the SQLite statement
// the analysis is running (it fails and the analysis throws) and makes one not yet started give up at
// once. An analysis spends most of its time reading; its in-memory part runs to the end, and the
// caller drops that result as superseded.
class AnalysisHandle {
public:
    void cancel()
    {
        std::lock_guard lock(m_mutex);
        m_cancelled = true;
        if (m_db)
            m_db->interrupt();
    }
    [[nodiscard]] bool cancelled() const
    {
        std::lock_guard lock(m_mutex);
        return m_cancelled;
    }
    // The worker's connection while it runs; false when cancelled before it started.
    bool attach(const SqliteDb *db)
    {
        std::lock_guard lock(m_mutex);
        m_db = m_cancelled ? nullptr : db;
        return !m_cancelled;
    }
    void detach()
    {
        std::lock_guard lock(m_mutex);
        m_db = nullptr;
    }

private:
    mutable std::mutex m_mutex;
    const SqliteDb *m_db = nullptr;
    bool m_cancelled = false;
};

// One view's analysis in the background, against a Reader connection of its own to the workspace, on a
// pool of one thread. start() runs work(Workspace &, Result &) there and hands the Result (a struct with a
// QString `error`, set when the work threw: "cancelled" after a cancel) to deliver on context's thread,
// always from the event loop (a quick job can finish before then() is attached, and its continuation
// would then run inside start()). A newer start(), cancel() or stop() stops the analysis before it (its
// SQLite statement is interrupted) and drops whatever that one still delivers.
class BackgroundAnalysis {
public:
    BackgroundAnalysis() { m_pool.setMaxThreadCount(1); }
    ~BackgroundAnalysis() { stop(); }
    BackgroundAnalysis(const BackgroundAnalysis &) = delete;
    BackgroundAnalysis &operator=(const BackgroundAnalysis &) = delete;

    template <typename Result, typename Work, typename Deliver>
    void start(QObject *context, const QString &workspacePath, Work work, Deliver deliver)
    {
        cancel();
        const quint64 generation = m_generation;
        auto handle = std::make_shared<AnalysisHandle>();
        m_handle = handle;
        QtConcurrent::run(&m_pool, [workspacePath, work, handle] {
            Result r;
            try {
                Workspace ws(workspacePath, Workspace::Role::Reader);
                struct Detach {
                    AnalysisHandle &h;
                    ~Detach() { h.detach(); }
                };
                if (handle->attach(&ws.db())) {
                    const Detach detach { *handle };
                    work(ws, r);
                } else {
                    r.error = QStringLiteral("cancelled");
                }
            } catch (const std::exception &e) {
                r.error = handle->cancelled() ? QStringLiteral("cancelled") : QString::fromUtf8(e.what());
            }
            return r;
        }).then(context, [this, context, generation, deliver](const Result &r) {
            QMetaObject::invokeMethod(
                context,
                [this, generation, deliver, r] {
                    if (generation != m_generation)
                        return; // cancelled or superseded
                    m_handle.reset();
                    deliver(r);
                },
                Qt::QueuedConnection);
        });
    }

    // Stops the running analysis, if any, and drops its result; true when one was running.
    bool cancel()
    {
        ++m_generation;
        if (!m_handle)
            return false;
        m_handle->cancel();
        m_handle.reset();
        return true;
    }
    // cancel(), then waits for the worker to let go of the workspace (before it closes or moves).
    void stop()
    {
        cancel();
        m_pool.waitForDone();
    }

private:
    QThreadPool m_pool;
    quint64 m_generation = 0;
    std::shared_ptr<AnalysisHandle> m_handle;
};

} // namespace plumb
