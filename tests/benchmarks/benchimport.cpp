// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchimport.h"

#include "builtinimporters.h"
#include "ingest/importcontext.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "ingest/inputfile.h"
#include "util/allocatortuning.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>

namespace plumb::bench {

QString workFolder(const char *tool, const QString &keep, const QTemporaryDir &tmp)
{
    const QString dir = keep.isEmpty() ? (tmp.isValid() ? tmp.path() : QString()) : keep;
    if (dir.isEmpty() || !QDir().mkpath(dir)) {
        std::fprintf(stderr, "%s: cannot create the working folder %s\n", tool, qPrintable(dir));
        return {};
    }
    return dir;
}

int64_t readVmHwmKiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    // /proc files report size 0: read them whole rather than testing atEnd().
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

int importOnly(const QString &file, const QString &workspace, const ImportOnlyHooks &hooks)
{
    // The allocator set as the plumb executable sets it (app/main.cpp), so that the child measures the
    // time and memory of `plumb import`.
    plumb::tuneAllocator();
    QJsonObject o;
    try {
        plumb::ImporterRegistry reg;
        plumb::registerBuiltinImporters(reg);
        plumb::ImportRunner runner(reg, workspace);
        runner.setJobs(hooks.jobs);
        QElapsedTimer t;
        t.start();
        const std::vector<plumb::FileImportResult> results = runner.run({ file });
        o[QStringLiteral("seconds")] = double(t.nsecsElapsed()) / 1e9;
        if (!results.empty()) {
            const plumb::FileImportResult &r = results.front();
            o[QStringLiteral("status")] = plumb::statusName(r.status);
            o[QStringLiteral("imported")] = std::all_of(results.begin(), results.end(),
                [](const auto &x) { return x.status == plumb::FileImportResult::Status::Imported; });
            o[QStringLiteral("message")] = r.message;
            o[QStringLiteral("records")] = double(r.records);
            if (hooks.addFields)
                hooks.addFields(o, r);
        } else {
            o[QStringLiteral("status")] = QStringLiteral("no result");
            o[QStringLiteral("imported")] = false;
        }
    } catch (const std::exception &e) {
        o[QStringLiteral("status")] = QStringLiteral("exception");
        o[QStringLiteral("imported")] = false;
        o[QStringLiteral("message")] = QString::fromUtf8(e.what());
    }
    o[QStringLiteral("vmhwm_kib")] = double(readVmHwmKiB());
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
    return 0;
}

bool runImportChild(const char *name, const QString &file, const QString &workspace, ChildImport *out,
    const QStringList &extraArgs)
{
    // Let the freshly written input reach the disk first, so that the import does not compete with
    // the kernel's write-back of the generator's output (a user's trace is at rest).
    ::sync();

    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(QCoreApplication::applicationFilePath(),
        QStringList { QStringLiteral("--import-only"), file, workspace } + extraArgs);
    if (!child.waitForStarted(-1) || !child.waitForFinished(-1)) {
        std::fprintf(stderr, "%s: import child failed to run\n", name);
        return false;
    }
    const QList<QByteArray> lines = child.readAllStandardOutput().trimmed().split('\n');
    const QJsonObject res = QJsonDocument::fromJson(lines.value(lines.size() - 1)).object();
    if (child.exitStatus() != QProcess::NormalExit || res.isEmpty()) {
        out->status = QStringLiteral("crashed");
        out->message = QStringLiteral("exit code %1").arg(child.exitCode());
    } else {
        out->imported = res.value(QStringLiteral("imported")).toBool();
        out->status = res.value(QStringLiteral("status")).toString();
        out->format = res.value(QStringLiteral("format")).toString();
        out->message = res.value(QStringLiteral("message")).toString();
        out->seconds = res.value(QStringLiteral("seconds")).toDouble();
        out->rssMB = res.value(QStringLiteral("vmhwm_kib")).toDouble() / 1024.0;
    }
    return true;
}

void removeWorkspace(const QString &workspace)
{
    for (const QString &suffix : { QString(), QStringLiteral("-wal"), QStringLiteral("-shm") })
        QFile::remove(workspace + suffix);
}

CheckpointedWorkspace::CheckpointedWorkspace(const QString &path)
{
    if (QFileInfo::exists(path)
        && sqlite3_open_v2(path.toUtf8().constData(), &m_db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
        m_open = true;
        sqlite3_exec(m_db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
    }
}

CheckpointedWorkspace::~CheckpointedWorkspace()
{
    sqlite3_close(m_db);
}

int64_t CheckpointedWorkspace::count(const char *sql) const
{
    sqlite3_stmt *st = nullptr;
    int64_t v = -1;
    if (sqlite3_prepare_v2(m_db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

int64_t workspaceBytes(const QString &workspace)
{
    return QFileInfo(workspace).size() + QFileInfo(workspace + QStringLiteral("-wal")).size();
}

std::vector<int64_t> parseSizes(const QString &s)
{
    std::vector<int64_t> out;
    for (QString part : s.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        part = part.trimmed();
        double mult = 1;
        if (part.endsWith(QLatin1Char('k'), Qt::CaseInsensitive)) {
            mult = 1e3;
            part.chop(1);
        } else if (part.endsWith(QLatin1Char('m'), Qt::CaseInsensitive)) {
            mult = 1e6;
            part.chop(1);
        }
        bool ok = false;
        const double v = part.toDouble(&ok);
        if (ok && v > 0)
            out.push_back(int64_t(v * mult));
    }
    return out;
}

SpecImporter::SpecImporter(QLatin1StringView magic, QString id, QString displayName)
    : m_magic(magic)
    , m_id(std::move(id))
    , m_displayName(std::move(displayName))
{
}

int SpecImporter::sniff(QByteArrayView head, const QString &) const
{
    return head.startsWith(QByteArrayView(m_magic.data(), m_magic.size())) ? 100 : 0;
}

QHash<QByteArray, QByteArray> SpecImporter::readSpec(ImportContext &ctx)
{
    QHash<QByteArray, QByteArray> spec;
    QFile f(ctx.input().path());
    if (!f.open(QIODevice::ReadOnly))
        return spec;
    for (const QByteArray &kv : f.readLine().trimmed().split(' ')) {
        const qsizetype eq = kv.indexOf('=');
        if (eq > 0)
            spec.insert(kv.left(eq), kv.mid(eq + 1));
    }
    return spec;
}

double generateFromSpec(const char *tool, std::unique_ptr<SpecImporter> importer, const QString &specPath,
    const QByteArray &specLine, const QString &workspace)
{
    QFile f(specPath);
    if (!f.open(QIODevice::WriteOnly)) {
        std::fprintf(stderr, "%s: cannot write %s\n", tool, qPrintable(specPath));
        return -1;
    }
    f.write(QByteArray(importer->magic().data(), importer->magic().size()) + ' ' + specLine + '\n');
    f.close();
    ImporterRegistry registry;
    registry.add(std::move(importer));
    ImportRunner runner(registry, workspace);
    QElapsedTimer t;
    t.start();
    const auto results = runner.run({ specPath });
    if (results.empty() || results[0].status != FileImportResult::Status::Imported) {
        std::fprintf(stderr, "%s: generating %s failed: %s\n", tool, qPrintable(workspace),
            results.empty() ? "no result" : qPrintable(results[0].message));
        return -1;
    }
    return double(t.elapsed()) / 1000.0;
}

} // namespace plumb::bench
