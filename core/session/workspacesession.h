// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importoptions.h"
#include "session/importoutcome.h"
#include "session/workspacesnapshot.h"

#include <QHash>
#include <QObject>
#include <QStringList>

class QTimer;

#include <cstdint>

namespace plumb {

class FolderWatcher;
class ImportController;
class ImporterRegistry;

// The workspace the window shows and the work done on it, without widgets: which workspace file is
// open, its loads, the import queue and live watching. Maps requests (open, import these paths,
// watch this folder, cancel) to worker-thread work and back to signals carrying plain values
// (WorkspaceSnapshot, ImportOutcome), so the window only arranges panels and the CLI or a test can
// drive it headless.
//
// Loads: every load (opening, a refresh, the reload after an import) reads a WorkspaceSnapshot on a
// worker with its own connection and gets a generation id; the result of a load superseded by a newer
// one is dropped (STYLE.md's JobTracker), so `loaded` always describes the newest request.
// Imports: one ImportController batch at a time; paths given while an import or a load runs are
// queued, user paths before what the watcher found. After a batch the workspace is read again and
// `importFinished` reports the outcome with what it brought (ImportContent), after `loaded`.
// Watching: FolderWatcher's changes are queued as live batches until stopWatching() or another
// workspace is opened (the data belongs to the workspace it was watched for).
class WorkspaceSession final : public QObject {
    Q_OBJECT
public:
    using Mode = WorkspaceSnapshot::Mode;
    enum class ImportRequest {
        Started, // the batch runs now
        Queued, // behind the running import or load
        NoWorkspace, // none is open or being opened: nothing was taken
        ReadOnly, // the workspace may not be written (readOnlyReason()): nothing was taken
        Nothing // no paths
    };

    explicit WorkspaceSession(const ImporterRegistry &registry, QObject *parent = nullptr);
    ~WorkspaceSession() override;

    // The workspace shown (the last one loaded successfully); empty when none is open.
    [[nodiscard]] QString workspacePath() const { return m_workspacePath; }
    [[nodiscard]] bool isLoading() const { return m_loading; }
    [[nodiscard]] QString loadingPath() const { return m_loadingPath; }
    [[nodiscard]] bool isImporting() const;
    [[nodiscard]] bool isCancelling() const;
    // An import ran and the reload that shows it has not been applied yet.
    [[nodiscard]] bool isAwaitingReload() const { return m_importAwaitingReload; }
    [[nodiscard]] bool isWatching() const;
    [[nodiscard]] FolderWatcher *watcher() const { return m_watcher; }
    [[nodiscard]] const ImporterRegistry &registry() const { return m_registry; }
    // Bumped per load; a load's result is applied only while its generation is the newest.
    [[nodiscard]] quint64 loadGeneration() const { return m_loadGeneration; }
    // The last finished batch (its content filled once the reload after it was applied).
    [[nodiscard]] const ImportOutcome &lastImport() const { return m_outcome; }
    // Why the shown workspace may not be written (WorkspaceSnapshot::readOnlyReason); empty when it may.
    [[nodiscard]] QString readOnlyReason() const { return m_readOnlyReason; }
    // How often the shown workspace's files are looked at for another program's writes (see
    // otherWriter()); 0 stops looking. Default 2 s.
    void setChangeCheckInterval(int ms);

    // Opens `path` (made absolute); refused (false) while an import runs.
    bool open(const QString &path, Mode mode = Mode::OpenExisting);
    // A new, empty workspace at `path`: a file there (with its -wal, -shm) is removed first. Refused
    // while an import runs and for the open workspace itself.
    bool create(const QString &path);
    // Reads the workspace again (the one being opened, while a load runs).
    void refresh();

    // Imports files and folders into the current workspace, each of `fileOptions` (by path) with its
    // own options (a metric log's column roles as the user set them).
    ImportRequest importPaths(
        const QStringList &paths, const QHash<QString, ImportOptions> &fileOptions = {});
    // Drops the queued user paths and cancels the running batch; true when one was running.
    bool cancelImport();

    // Live mode: imports what is under `folder` now and, every few seconds, what appears or grows
    // there. False when no workspace is open.
    bool watchFolder(const QString &folder);
    void stopWatching();

Q_SIGNALS:
    // A load began; `switching` when it is of another workspace than the one shown.
    void loadStarted(const QString &path, bool switching);
    // The newest load's snapshot; `switched` when it replaced another workspace (or none).
    void loaded(const WorkspaceSnapshot &snapshot, bool switched);
    void loadFailed(const QString &path, const QString &reason);
    // Paths that were waiting for a workspace that could not be opened: nothing was imported.
    void importsDropped(const QStringList &paths, const QString &reason);
    void importStarted(int fileCount, bool live);
    // `fileFraction` of the current file and `overall` by bytes, both 0..1; `fileIndex` 0-based.
    void importProgress(
        const QString &stage, double fileFraction, double overall, int fileIndex, int fileCount);
    // The batch is done (committed or rolled back); the reload that shows it starts now.
    void importDone(const ImportOutcome &outcome);
    // After the reload following the batch was applied (`loaded`) or failed (`loadFailed`).
    void importFinished(const ImportOutcome &outcome);
    void watchingChanged(bool watching, const QString &folder);
    // Anything isLoading(), isImporting(), isWatching() or workspacePath() answer may have changed.
    void stateChanged();
    // Another program (plumb import, a second window) is writing the shown workspace: `holder` names it
    // (writeLockHolder(); empty when it cannot be told). Once its writes stop, the workspace is read again
    // (a refresh: loadStarted, loaded).
    void otherWriter(const QString &holder);

private:
    struct Loaded {
        WorkspaceSnapshot snapshot;
        ImportContent content;
    };
    void startLoad(const QString &path, Mode mode);
    void apply(const Loaded &loaded);
    void startNextImport();
    void onImportStarted(int fileCount);
    void onImportFinished();
    void finishAwaitedImport();
    void onWatchedFilesChanged(const QStringList &files);
    void checkForOtherWriters();

    const ImporterRegistry &m_registry;
    ImportController *m_importer;
    FolderWatcher *m_watcher;
    QString m_workspacePath;
    QString m_loadingPath; // while m_loading
    bool m_loading = false;
    quint64 m_loadGeneration = 0;
    QHash<int64_t, int64_t> m_metricPoints; // the shown workspace's, before the next import
    QStringList m_pendingImports; // user paths waiting for the running import or load
    QHash<QString, ImportOptions> m_pendingOptions; // of some of them, by path
    QStringList m_pendingLive; // what the watcher found, waiting likewise (after user paths)
    bool m_liveBatch = false; // the running batch is the watcher's
    bool m_importAwaitingReload = false; // importFinished() is emitted after the next applied load
    ImportOutcome m_outcome;
    QString m_readOnlyReason; // of the shown workspace
    QTimer *m_changeTimer;
    QString m_filesStamp; // the workspace's files (sizes, times) when it was last read
    QString m_seenStamp; // at the last look
    QString m_otherWriter; // said by otherWriter() for the current round of another program's writes
};

} // namespace plumb
