#pragma once

#include "workspace.h"

#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent>

#include <exception>

namespace plumb {

// Runs work(Workspace &) on `pool` against a Reader connection of its own to workspacePath, and hands
// its Result (a struct with a QString `error`, set when the work threw) to deliver on context's thread.
// Always from the event loop: a quick job can finish before then() is attached, and its continuation
// would then run inside this call. Callers drop results of superseded requests in deliver.
template <typename Result, typename Work, typename Deliver>
void analyseInBackground(QThreadPool &pool, QObject *context, const QString &workspacePath, Work work, Deliver deliver)
{
    QtConcurrent::run(&pool, [workspacePath, work] {
        Result r;
        try {
            Workspace ws(workspacePath, Workspace::Role::Reader);
            work(ws, r);
        } catch (const std::exception &e) {
            r.error = QString::fromUtf8(e.what());
        }
        return r;
    }).then(context, [context, deliver](const Result &r) {
        QMetaObject::invokeMethod(context, [deliver, r] { deliver(r); }, Qt::QueuedConnection);
    });
}

} // namespace plumb
