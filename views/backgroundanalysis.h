#pragma once

#include "sqlitedb.h"
#include "workspace.h"

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

// Runs work(Workspace &) on `pool` against a Reader connection of its own to workspacePath, and hands
// its Result (a struct with a QString `error`, set when the work threw: "cancelled" after the handle's
// cancel()) to deliver on context's thread. Always from the event loop: a quick job can finish before
// then() is attached, and its continuation would then run inside this call. Callers drop results of
// superseded requests in deliver.
template <typename Result, typename Work, typename Deliver>
std::shared_ptr<AnalysisHandle> analyseInBackground(QThreadPool &pool, QObject *context, const QString &workspacePath,
                                                    Work work, Deliver deliver)
{
    auto handle = std::make_shared<AnalysisHandle>();
    QtConcurrent::run(&pool, [workspacePath, work, handle] {
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
    }).then(context, [context, deliver](const Result &r) {
        QMetaObject::invokeMethod(context, [deliver, r] { deliver(r); }, Qt::QueuedConnection);
    });
    return handle;
}

} // namespace plumb
