#include "importhelpers.h"

#include "builtinimporters.h"
#include "importerregistry.h"
#include "importrunner.h"

#include <QFile>
#include <QtGlobal>

bool writeTestFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) {
        qWarning("cannot write %s", qPrintable(path));
        return false;
    }
    return true;
}

QString importIntoWorkspace(const QString &workspacePath, const QStringList &paths)
{
    plumb::ImporterRegistry registry;
    plumb::registerBuiltinImporters(registry);
    plumb::ImportRunner runner(registry, workspacePath);
    QString problems;
    for (const auto &r : runner.run(paths))
        if (r.status != plumb::FileImportResult::Status::Imported)
            problems += QStringLiteral("%1: %2\n").arg(r.path, r.message);
    return problems;
}

QString importFoldersIntoWorkspace(const QString &workspacePath, const QStringList &paths)
{
    plumb::ImporterRegistry registry;
    plumb::registerBuiltinImporters(registry);
    plumb::ImportRunner runner(registry, workspacePath);
    QString problems;
    int imported = 0;
    for (const auto &r : runner.run(paths)) {
        using Status = plumb::FileImportResult::Status;
        imported += r.status == Status::Imported;
        if (r.status == Status::Failed || r.status == Status::Cancelled)
            problems += QStringLiteral("%1: %2\n").arg(r.path, r.message);
    }
    if (imported == 0)
        problems += QStringLiteral("nothing was imported from %1\n").arg(paths.join(QStringLiteral(", ")));
    return problems;
}

QString importTestJson(const QString &dir, const QString &name, const QByteArray &json)
{
    const QString path = dir + u'/' + name, ws = dir + QStringLiteral("/w.plumb");
    if (!writeTestFile(path, json))
        return {};
    const QString problems = importIntoWorkspace(ws, { path });
    if (!problems.isEmpty()) {
        qWarning("%s", qPrintable(problems));
        return {};
    }
    return ws;
}
