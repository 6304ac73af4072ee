// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/importcontroller.h"

#include <algorithm>

#include "session/runonpool.h"
#include "store/sqlitedb.h"

namespace plumb {

ImportController::ImportController(const ImporterRegistry &registry, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
{
}

ImportController::~ImportController()
{
    if (m_runner) {
        m_runner->cancel();
    }
    m_work.waitForFinished();
}

bool ImportController::start(
    const QString &workspacePath, const QStringList &paths, const QHash<QString, ImportOptions> &fileOptions)
{
    if (m_runner) {
        return false;
    }
    m_paths = paths;
    m_lastProgress = {};
    m_results.clear();
    m_error.clear();
    auto runner = std::make_shared<ImportRunner>(m_registry, workspacePath);
    for (auto it = fileOptions.cbegin(); it != fileOptions.cend(); ++it) {
        runner->setFileOptions(it.key(), it.value());
    }
    runner->setProgressCallback([this](const ImportProgress &p) {
        // Worker thread: only post. The destructor waits for the worker, so `this` outlives it.
        QMetaObject::invokeMethod(
            this,
            [this, p] {
                if (m_runner) {
                    m_lastProgress = p;
                    Q_EMIT progress(p.stage, p.fraction, p.overall, p.fileIndex, p.fileCount);
                }
            },
            Qt::QueuedConnection);
    });
    // Another process writing the workspace: said where the progress is, with the rest of it unchanged.
    runner->setWaitCallback([this](const QString &waiting, double) {
        QMetaObject::invokeMethod(
            this,
            [this, waiting] {
                if (m_runner) {
                    const ImportProgress &p = m_lastProgress;
                    Q_EMIT progress(waiting.left(1).toUpper() + waiting.mid(1), p.fraction, p.overall,
                        p.fileIndex, std::max(p.fileCount, 1));
                }
            },
            Qt::QueuedConnection);
    });
    m_runner = runner;
    Q_EMIT started(int(paths.size()));

    m_work = runOnPool([runner, paths]() -> Outcome {
        Outcome o;
        try {
            o.results = runner->run(paths);
        } catch (const SqlError &e) {
            o.error = e.message();
        } catch (const std::exception &e) {
            o.error = QString::fromUtf8(e.what());
        }
        return o;
    });
    // Delivered from the event loop (never inside start()); dropped if this object is destroyed first.
    m_work.then(this, [this](Outcome outcome) {
        QMetaObject::invokeMethod(
            this, [this, outcome = std::move(outcome)]() mutable { onDone(std::move(outcome)); },
            Qt::QueuedConnection);
    });
    return true;
}

void ImportController::cancel()
{
    if (m_runner) {
        m_runner->cancel();
    }
}

bool ImportController::isCancelling() const
{
    return m_runner && m_runner->cancelled();
}

void ImportController::onDone(Outcome outcome)
{
    m_results = std::move(outcome.results);
    m_error = outcome.error;
    m_runner.reset();
    Q_EMIT finished();
}

} // namespace plumb
