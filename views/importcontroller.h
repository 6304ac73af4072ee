// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importrunner.h"

#include <QFuture>
#include <QObject>
#include <QStringList>

#include <memory>
#include <vector>

namespace plumb {

class ImporterRegistry;

// Runs one ImportRunner at a time on a worker thread and reports back on the GUI thread.
//
// The runner's progress callback runs on the worker; it posts each update to this object with
// QMetaObject::invokeMethod(..., Qt::QueuedConnection), so `progress` is always emitted on the GUI
// thread. cancel() only sets the runner's atomic flag: the worker stops at the next chunk boundary
// and that file's transaction rolls back. The destructor cancels and waits, so no worker outlives it.
class ImportController final : public QObject {
    Q_OBJECT
public:
    explicit ImportController(const ImporterRegistry &registry, QObject *parent = nullptr);
    ~ImportController() override;

    [[nodiscard]] bool isRunning() const { return m_runner != nullptr; }
    // Starts importing `paths` into the workspace file. Returns false when an import is running.
    // A CSV/JSONL metric log among `paths` (given itself, not found in a folder) is first shown in
    // a TabularImportDialog, modal, when the parent is a widget and askColumnRoles() is on; a log
    // whose dialog is cancelled is not imported.
    bool start(const QString &workspacePath, const QStringList &paths);
    void cancel();
    [[nodiscard]] bool isCancelling() const;
    void setAskColumnRoles(bool ask) { m_askColumnRoles = ask; }
    [[nodiscard]] bool askColumnRoles() const { return m_askColumnRoles; }

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
    QFuture<Outcome> m_work; // the worker itself, not its GUI-thread continuation
    QStringList m_paths;
    std::vector<FileImportResult> m_results;
    QString m_error;
    bool m_askColumnRoles = true;
};

} // namespace plumb
