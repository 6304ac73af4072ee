// SPDX-License-Identifier: GPL-3.0-or-later
#include "importcontroller.h"

#include "ingest/importer.h"
#include "ingest/importerregistry.h"
#include "ingest/inputfile.h"
#include "store/sqlitedb.h"
#include "tabularimportdialog.h"

#include <QFileInfo>
#include <QWidget>
#include <QtConcurrent>

namespace plumb {

ImportController::ImportController(const ImporterRegistry &registry, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
{
}

ImportController::~ImportController()
{
    if (m_runner)
        m_runner->cancel();
    m_work.waitForFinished();
}

bool ImportController::start(const QString &workspacePath, const QStringList &paths)
{
    if (m_runner)
        return false;
    // Metric logs given by path: their column roles, as detected and as the user corrects them.
    QStringList toImport = paths;
    std::vector<std::pair<QString, ImportOptions>> fileOptions;
    auto *window = qobject_cast<QWidget *>(parent());
    for (const QString &p : paths) {
        const QFileInfo info(p);
        if (!m_askColumnRoles || !window || !info.isFile())
            continue;
        const Importer *importer = m_registry.find(InputFile::peek(p, 64 * 1024), info.fileName());
        if (!importer || importer->id() != QLatin1String("tabular"))
            continue;
        TabularImportDialog dialog(p, window);
        if (dialog.exec() == QDialog::Accepted)
            fileOptions.emplace_back(p, dialog.options());
        else
            toImport.removeAll(p);
    }
    m_paths = toImport;
    m_results.clear();
    m_error.clear();
    auto runner = std::make_shared<ImportRunner>(m_registry, workspacePath);
    for (const auto &[p, o] : fileOptions)
        runner->setFileOptions(p, o);
    runner->setProgressCallback([this](const ImportProgress &p) {
        // Worker thread: only post. The destructor waits for the worker, so `this` outlives it.
        QMetaObject::invokeMethod(
            this,
            [this, p] {
                if (m_runner)
                    Q_EMIT progress(p.stage, p.fraction, p.overall, p.fileIndex, p.fileCount);
            },
            Qt::QueuedConnection);
    });
    m_runner = runner;
    Q_EMIT started(int(toImport.size()));

    m_work = QtConcurrent::run([runner, paths = toImport]() -> Outcome {
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
    // Delivered from the GUI thread's event loop (never inside start()); dropped if this object is
    // destroyed first.
    m_work.then(this, [this](Outcome outcome) {
        QMetaObject::invokeMethod(
            this, [this, outcome = std::move(outcome)]() mutable { onDone(std::move(outcome)); },
            Qt::QueuedConnection);
    });
    return true;
}

void ImportController::cancel()
{
    if (m_runner)
        m_runner->cancel();
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
