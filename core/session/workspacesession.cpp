// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/workspacesession.h"

#include "ingest/folderwatcher.h"
#include "ingest/importerregistry.h"
#include "session/importcontroller.h"
#include "session/runonpool.h"
#include "store/lockholder.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

namespace plumb {

WorkspaceSession::WorkspaceSession(const ImporterRegistry &registry, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
    , m_importer(new ImportController(registry, this))
    , m_watcher(new FolderWatcher(this))
{
    connect(m_importer, &ImportController::started, this, &WorkspaceSession::onImportStarted);
    connect(m_importer, &ImportController::progress, this, &WorkspaceSession::importProgress);
    connect(m_importer, &ImportController::finished, this, &WorkspaceSession::onImportFinished);
    m_watcher->setHiddenFolders(registry.hiddenFolders());
    connect(m_watcher, &FolderWatcher::filesChanged, this, &WorkspaceSession::onWatchedFilesChanged);
    m_changeTimer = new QTimer(this);
    connect(m_changeTimer, &QTimer::timeout, this, &WorkspaceSession::checkForOtherWriters);
    setChangeCheckInterval(2000);
}

void WorkspaceSession::setChangeCheckInterval(int ms)
{
    if (ms > 0)
        m_changeTimer->start(ms);
    else
        m_changeTimer->stop();
}

namespace {

// What changes when anybody commits to the workspace: the file and its log (sizes, modification times).
// An empty log counts as none: the first connection to open the workspace creates it, a reader too (the
// timeline's, a query's), and the last to close removes it. A stat of two files: cheap enough for the GUI
// thread every few seconds.
QString filesStamp(const QString &path)
{
    QString stamp;
    for (const QString &suffix : { QString(), QStringLiteral("-wal") }) {
        const QFileInfo info(path + suffix);
        const bool some = info.exists() && (suffix.isEmpty() || info.size() > 0);
        stamp += QStringLiteral("%1:%2;")
                     .arg(some ? info.size() : -1)
                     .arg(some ? info.lastModified().toMSecsSinceEpoch() : 0);
    }
    return stamp;
}

} // namespace

// Another program's writes: while they go on (the files keep changing, or it holds the write lock) the
// window is told who; once they have stopped, the workspace is read again. The session's own imports
// and loads are not looked at (they are followed by a load anyway, whose stamp is taken after it).
void WorkspaceSession::checkForOtherWriters()
{
    if (m_workspacePath.isEmpty() || m_loading || isImporting() || m_importAwaitingReload)
        return;
    const QString stamp = filesStamp(m_workspacePath);
    const bool stable = stamp == m_seenStamp;
    m_seenStamp = stamp;
    if (stamp == m_filesStamp)
        return;
    const QString holder = writeLockHolder(m_workspacePath);
    if (!stable || !holder.isEmpty()) {
        if (m_otherWriter.isNull() || (!holder.isEmpty() && holder != m_otherWriter)) {
            m_otherWriter = holder.isNull() ? QStringLiteral("") : holder;
            Q_EMIT otherWriter(holder);
        }
        return;
    }
    m_otherWriter = QString();
    refresh();
}

WorkspaceSession::~WorkspaceSession() = default;

bool WorkspaceSession::isImporting() const
{
    return m_importer->isRunning();
}

bool WorkspaceSession::isCancelling() const
{
    return m_importer->isCancelling();
}

bool WorkspaceSession::isWatching() const
{
    return m_watcher->isWatching();
}

// ---------------------------------------------------------------------------------------------
// Loading

bool WorkspaceSession::open(const QString &path, Mode mode)
{
    if (isImporting() || path.isEmpty()) {
        return false;
    }
    startLoad(QFileInfo(path).absoluteFilePath(), mode);
    return true;
}

bool WorkspaceSession::create(const QString &path)
{
    if (isImporting() || path.isEmpty()) {
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute == m_workspacePath) {
        return false;
    }
    for (const QString &suffix : { QString(), QStringLiteral("-wal"), QStringLiteral("-shm") }) {
        QFile::remove(absolute + suffix);
    }
    startLoad(absolute, Mode::CreateIfMissing);
    return true;
}

void WorkspaceSession::refresh()
{
    const QString path = m_loading ? m_loadingPath : m_workspacePath;
    if (!path.isEmpty()) {
        startLoad(path, Mode::OpenExisting);
    }
}

void WorkspaceSession::startLoad(const QString &path, Mode mode)
{
    const quint64 generation = ++m_loadGeneration;
    const bool switching = path != m_workspacePath;
    m_loadingPath = path;
    m_loading = true;
    if (switching) {
        stopWatching(); // the watched folder's data belongs to the workspace it was watched for
    }
    // The reload after an import also reads what the import brought (on the same worker).
    const bool withContent = m_importAwaitingReload && !switching;
    const std::vector<FileImportResult> results
        = withContent ? m_outcome.results : std::vector<FileImportResult> {};
    const QHash<int64_t, int64_t> before = m_metricPoints;
    Q_EMIT loadStarted(path, switching);
    Q_EMIT stateChanged();
    runOnPool([path, mode, withContent, results, before] {
        Loaded l;
        l.snapshot = WorkspaceSnapshot::load(path, mode);
        if (withContent && l.snapshot.ok()) {
            try {
                Workspace ws(path, Workspace::Role::Reader);
                l.content = ImportContent::read(ws.db(), results, before);
            } catch (const std::exception &) {
                // The snapshot was read a moment ago: a failure here only costs the view choice.
            }
        }
        return l;
    }).then(this, [this, generation](const Loaded &loaded) {
        // then() runs at once when the worker already finished; always deliver from the event loop so
        // that callers of startLoad() (constructors, tests) see the result after they return.
        QMetaObject::invokeMethod(
            this,
            [this, generation, loaded] {
                if (generation == m_loadGeneration) { // else a newer load was started meanwhile
                    apply(loaded);
                }
            },
            Qt::QueuedConnection);
    });
}

void WorkspaceSession::apply(const Loaded &l)
{
    const WorkspaceSnapshot &s = l.snapshot;
    m_loading = false;
    m_loadingPath.clear();
    if (!s.ok()) {
        if (m_workspacePath.isEmpty() && !m_pendingImports.isEmpty()) {
            const QStringList dropped = m_pendingImports;
            m_pendingImports.clear();
            m_pendingOptions.clear();
            Q_EMIT importsDropped(dropped, tr("not imported: no workspace is open"));
        }
        Q_EMIT stateChanged();
        Q_EMIT loadFailed(s.path, s.error);
        finishAwaitedImport();
        startNextImport();
        return;
    }
    const bool switched = s.path != m_workspacePath;
    m_workspacePath = s.path;
    m_metricPoints = s.metricPoints;
    m_readOnlyReason = s.readOnlyReason;
    m_filesStamp = m_seenStamp = filesStamp(s.path);
    m_otherWriter = QString();
    if (m_importAwaitingReload) {
        m_outcome.content = l.content;
    }
    Q_EMIT stateChanged();
    Q_EMIT loaded(s, switched);
    finishAwaitedImport();
    startNextImport();
}

// ---------------------------------------------------------------------------------------------
// Importing

WorkspaceSession::ImportRequest WorkspaceSession::importPaths(
    const QStringList &paths, const QHash<QString, ImportOptions> &fileOptions)
{
    QStringList wanted;
    for (const QString &p : paths) {
        if (!p.isEmpty()) {
            wanted << p;
        }
    }
    if (wanted.isEmpty()) {
        return ImportRequest::Nothing;
    }
    if (m_workspacePath.isEmpty() && !m_loading) {
        return ImportRequest::NoWorkspace;
    }
    if (!m_readOnlyReason.isEmpty() && !m_loading) {
        return ImportRequest::ReadOnly;
    }
    const bool queued = isImporting() || m_loading || m_importAwaitingReload;
    m_pendingImports += wanted;
    for (auto it = fileOptions.cbegin(); it != fileOptions.cend(); ++it) {
        m_pendingOptions.insert(it.key(), it.value());
    }
    startNextImport();
    return queued ? ImportRequest::Queued : ImportRequest::Started;
}

void WorkspaceSession::startNextImport()
{
    if ((m_pendingImports.isEmpty() && m_pendingLive.isEmpty()) || isImporting() || m_loading
        || m_importAwaitingReload || m_workspacePath.isEmpty()) {
        return;
    }
    if (!m_readOnlyReason.isEmpty()) { // asked for while the workspace was being opened
        const QStringList dropped = m_pendingImports + m_pendingLive;
        m_pendingImports.clear();
        m_pendingOptions.clear();
        m_pendingLive.clear();
        Q_EMIT importsDropped(
            dropped, tr("not imported: %1 is read-only (%2)").arg(m_workspacePath, m_readOnlyReason));
        return;
    }
    m_liveBatch = m_pendingImports.isEmpty();
    QStringList paths;
    QHash<QString, ImportOptions> options;
    if (m_liveBatch) {
        paths.swap(m_pendingLive);
    } else {
        paths.swap(m_pendingImports);
        options.swap(m_pendingOptions);
    }
    m_importer->start(m_workspacePath, paths, options);
}

bool WorkspaceSession::cancelImport()
{
    m_pendingImports.clear();
    m_pendingOptions.clear();
    if (!isImporting()) {
        return false;
    }
    m_importer->cancel();
    return true;
}

void WorkspaceSession::onImportStarted(int fileCount)
{
    Q_EMIT stateChanged();
    Q_EMIT importStarted(fileCount, m_liveBatch);
}

void WorkspaceSession::onImportFinished()
{
    using S = FileImportResult::Status;
    ImportOutcome o;
    o.results = m_importer->results();
    o.paths = m_importer->paths();
    o.error = m_importer->error();
    o.live = m_liveBatch;
    for (const FileImportResult &r : o.results) {
        o.imported += r.status == S::Imported;
        o.already += r.status == S::AlreadyImported;
        o.cancelled += r.status == S::Cancelled;
        o.problems += r.status == S::Unrecognised || r.status == S::Failed || r.status == S::Cancelled;
        o.records += r.status == S::Imported ? r.records : 0;
    }
    if (!o.error.isEmpty()) {
        o.problems = int(o.paths.size());
    }
    m_outcome = std::move(o);
    m_importAwaitingReload = true;
    Q_EMIT stateChanged();
    Q_EMIT importDone(m_outcome);
    refresh();
}

void WorkspaceSession::finishAwaitedImport()
{
    if (!m_importAwaitingReload) {
        return;
    }
    m_importAwaitingReload = false;
    Q_EMIT stateChanged();
    Q_EMIT importFinished(m_outcome);
}

// ---------------------------------------------------------------------------------------------
// Watching

bool WorkspaceSession::watchFolder(const QString &folder)
{
    if (m_workspacePath.isEmpty() || !m_readOnlyReason.isEmpty()) {
        return false;
    }
    m_pendingLive.clear();
    m_watcher->watch({ folder }); // its first look imports what is there
    Q_EMIT stateChanged();
    Q_EMIT watchingChanged(true, folder);
    return true;
}

void WorkspaceSession::stopWatching()
{
    if (!m_watcher->isWatching()) {
        return;
    }
    m_watcher->stop();
    m_pendingLive.clear();
    Q_EMIT stateChanged();
    Q_EMIT watchingChanged(false, QString());
}

void WorkspaceSession::onWatchedFilesChanged(const QStringList &files)
{
    for (const QString &f : m_registry.importPathsFor(files)) {
        if (!m_pendingLive.contains(f)) {
            m_pendingLive << f;
        }
    }
    startNextImport();
}

} // namespace plumb
