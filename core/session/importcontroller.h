// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importoptions.h"
#include "ingest/importrunner.h"

#include <QFuture>
#include <QHash>
#include <QObject>
#include <QStringList>

#include <memory>
#include <vector>

namespace plumb {

class ImporterRegistry;

// Runs one ImportRunner at a time on a worker thread and reports back on the thread that owns it.
//
// The runner's progress callback runs on the worker; it posts each update to this object with
// QMetaObject::invokeMethod(..., Qt::QueuedConnection), so `progress` is always emitted on the owning
// thread. cancel() only sets the runner's atomic flag: the worker stops at the next chunk boundary
// and that file's transaction rolls back. The destructor cancels and waits, so no worker outlives it.
// No widgets: what the user says about a file (a metric log's column roles) comes in as options.
class ImportController final : public QObject {
    Q_OBJECT
public:
    explicit ImportController(const ImporterRegistry &registry, QObject *parent = nullptr);
    ~ImportController() override;

    [[nodiscard]] bool isRunning() const { return m_runner != nullptr; }
    // Starts importing `paths` into the workspace file, each file of `fileOptions` (by path) with its
    // own options. Returns false when an import is running.
    bool start(const QString &workspacePath, const QStringList &paths,
        const QHash<QString, ImportOptions> &fileOptions = {});
    void cancel();
    [[nodiscard]] bool isCancelling() const;

    // Valid after `finished`: one entry per file (folders expanded), in import order.
    [[nodiscard]] const std::vector<FileImportResult> &results() const { return m_results; }
    // Non-empty after `finished` when the workspace itself could not be opened for writing.
    [[nodiscard]] QString error() const { return m_error; }
    [[nodiscard]] QStringList paths() const { return m_paths; }

Q_SIGNALS:
    void started(int fileCount);
    // `fileFraction` of the current file and `overall` by bytes, both 0..1; `fileIndex` 0-based.
    void progress(const QString &stage, double fileFraction, double overall, int fileIndex, int fileCount);
    void finished();

private:
    struct Outcome {
        std::vector<FileImportResult> results;
        QString error;
    };
    void onDone(Outcome outcome);

    const ImporterRegistry &m_registry;
    std::shared_ptr<ImportRunner> m_runner; // non-null while an import runs
    QFuture<Outcome> m_work; // the worker itself, not its continuation
    ImportProgress m_lastProgress; // the last reported, for saying a wait for another writer in its place
    QStringList m_paths;
    std::vector<FileImportResult> m_results;
    QString m_error;
};

} // namespace plumb
