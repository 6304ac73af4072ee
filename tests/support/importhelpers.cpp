// SPDX-License-Identifier: GPL-3.0-or-later
#include "importhelpers.h"

#include "store/schema.h"

#include "builtinimporters.h"
#include "ingest/importer.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"

#include <QFile>
#include <QtGlobal>

#include <memory>

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

namespace {

// One importer claiming every input.
class Forced final : public plumb::Importer {
public:
    explicit Forced(const plumb::Importer *real)
        : m_real(real)
    {
    }
    QString id() const override { return m_real->id(); }
    QString displayName() const override { return m_real->displayName(); }
    int version() const override { return m_real->version(); }
    int sniff(QByteArrayView, const QString &) const override { return 100; }
    void read(plumb::ImportContext &ctx) const override { m_real->read(ctx); }
    QStringList companionFiles(const QString &path) const override { return m_real->companionFiles(path); }

private:
    const plumb::Importer *m_real;
};

} // namespace

plumb::FileImportResult importWithImporter(
    const QString &workspacePath, const QString &importerId, const QString &path)
{
    static const plumb::ImporterRegistry all = [] {
        plumb::ImporterRegistry r;
        plumb::registerBuiltinImporters(r);
        return r;
    }();
    const plumb::Importer *real = all.byId(importerId);
    if (!real)
        qFatal("no importer %s in this build", qPrintable(importerId));
    plumb::ImporterRegistry one;
    one.add(std::make_unique<Forced>(real));
    plumb::ImportRunner runner(one, workspacePath);
    return runner.run({ path }).front();
}

plumb::SqliteDb createWorkspaceAtSchema(const QString &path, int version)
{
    plumb::SqliteDb db(path, plumb::SqliteDb::OpenMode::ReadWriteCreate);
    for (int v = 0; v < version; ++v)
        db.exec(plumb::schemaMigrations().at(size_t(v)));
    db.exec("PRAGMA user_version = " + std::to_string(version));
    return db;
}
