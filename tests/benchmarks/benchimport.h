// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the import benchmarks (bench_import_chrometrace, bench_import_nsys, bench_import_xplane) share:
// the `--import-only FILE WORKSPACE` child mode, running that child from the parent, reading the
// workspace afterwards, and parsing size lists.

#include "ingest/importer.h"

#include <QHash>
#include <QString>
#include <QTemporaryDir>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

class QJsonObject;
struct sqlite3;

namespace plumb {
class ImportContext;
class ImporterRegistry;
struct FileImportResult;
} // namespace plumb

namespace plumb::bench {

// Generated benchmark inputs that go through the real import path: a one-line spec file
// "MAGIC key=value ..." read by an importer that only the benchmark registers.
class SpecImporter : public plumb::Importer {
public:
    SpecImporter(QLatin1StringView magic, QString id, QString displayName);
    [[nodiscard]] QString id() const override { return m_id; }
    [[nodiscard]] QString displayName() const override { return m_displayName; }
    [[nodiscard]] int version() const override { return 1; }
    [[nodiscard]] int sniff(QByteArrayView head, const QString &fileName) const override;
    [[nodiscard]] QLatin1StringView magic() const { return m_magic; }

protected:
    // The key=value pairs of the spec file being imported.
    [[nodiscard]] static QHash<QByteArray, QByteArray> readSpec(plumb::ImportContext &ctx);

private:
    QLatin1StringView m_magic;
    QString m_id, m_displayName;
};

// Writes `specLine` (after the importer's magic and a space) to specPath and imports it into workspace with
// only `importer` registered. Returns the seconds it took, or -1 after a message on stderr naming `tool`.
double generateFromSpec(const char *tool, std::unique_ptr<SpecImporter> importer, const QString &specPath,
    const QByteArray &specLine, const QString &workspace);

// The folder generated inputs go to: `keep` (created if needed), else `tmp`. Empty, after a message on
// stderr naming `tool`, when neither can be made.
[[nodiscard]] QString workFolder(const char *tool, const QString &keep, const QTemporaryDir &tmp);

// Peak resident set size of this process (VmHWM in /proc/self/status), in KiB; -1 if unknown.
[[nodiscard]] int64_t readVmHwmKiB();

struct ImportOnlyHooks {
    int jobs = 0; // ImportRunner::setJobs
    // Called with the JSON line's object once the common fields of an import result are set.
    std::function<void(QJsonObject &, const plumb::FileImportResult &)> addFields;
};

// Child mode: import FILE (or a folder) into WORKSPACE (ImporterRegistry + registerBuiltinImporters +
// ImportRunner) and print one compact JSON line on stdout: seconds, status, imported, message, records
// of the first file (imported: every file was; plus what hooks.addFields adds) and vmhwm_kib. Returns
// the process exit status (0).
int importOnly(const QString &file, const QString &workspace, const ImportOnlyHooks &hooks = {});

// What the parent learns from the child's JSON line.
struct ChildImport {
    bool imported = false;
    QString status;
    QString message;
    QString format; // empty unless the child reported one
    double seconds = 0;
    double rssMB = 0;
};

// sync()s first, so that the import does not compete with the kernel's write-back of the generator's
// output (a user's trace is at rest), then runs this executable as `--import-only FILE WORKSPACE`,
// stderr forwarded, and reads its last stdout line. A child that crashed or printed no JSON gives
// status "crashed". Returns false (after printing "NAME: import child failed to run") if the child
// could not be started or waited for.
bool runImportChild(const char *name, const QString &file, const QString &workspace, ChildImport *out,
    const QStringList &extraArgs = {});

// Removes WORKSPACE and its -wal and -shm files.
void removeWorkspace(const QString &workspace);

// A finished workspace opened read-write with its WAL folded in (PRAGMA wal_checkpoint(TRUNCATE)), to
// read row counts from; closed by the destructor. isOpen() is false if the file is missing or would
// not open.
class CheckpointedWorkspace {
public:
    explicit CheckpointedWorkspace(const QString &path);
    ~CheckpointedWorkspace();
    CheckpointedWorkspace(const CheckpointedWorkspace &) = delete;
    CheckpointedWorkspace &operator=(const CheckpointedWorkspace &) = delete;

    [[nodiscard]] bool isOpen() const { return m_open; }
    // First column of the first row of SQL (e.g. "SELECT count(*) FROM slice"); -1 on error.
    [[nodiscard]] int64_t count(const char *sql) const;

private:
    sqlite3 *m_db = nullptr;
    bool m_open = false;
};

// Bytes on disk of WORKSPACE and its -wal file (call once the workspace is closed).
[[nodiscard]] int64_t workspaceBytes(const QString &workspace);

// "1000000,5M,200k" -> sizes (k = 1e3, M = 1e6, case-insensitive); parts that are not positive numbers
// are dropped.
[[nodiscard]] std::vector<int64_t> parseSizes(const QString &s);

[[nodiscard]] inline const char *verdict(bool pass)
{
    return pass ? "PASS" : "MISS";
}

} // namespace plumb::bench
