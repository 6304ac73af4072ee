#pragma once

// What the import benchmarks (bench_import_chrometrace, bench_import_nsys, bench_import_xplane) share:
// the `--import-only FILE WORKSPACE` child mode, running that child from the parent, reading the
// workspace afterwards, and parsing size lists.

#include <QString>
#include <QTemporaryDir>

#include <cstdint>
#include <functional>
#include <vector>

class QJsonObject;
struct sqlite3;

namespace plumb {
class ImporterRegistry;
struct FileImportResult;
}

namespace plumb::bench {

// The folder generated inputs go to: `keep` (created if needed), else `tmp`. Empty, after a message on
// stderr naming `tool`, when neither can be made.
[[nodiscard]] QString workFolder(const char *tool, const QString &keep, const QTemporaryDir &tmp);

// Peak resident set size of this process (VmHWM in /proc/self/status), in KiB; -1 if unknown.
[[nodiscard]] int64_t readVmHwmKiB();

struct ImportOnlyHooks {
    // Called with the JSON line's object once the common fields of an import result are set.
    std::function<void(QJsonObject &, const plumb::FileImportResult &)> addFields;
};

// Child mode: import FILE into WORKSPACE (ImporterRegistry + registerBuiltinImporters + ImportRunner)
// and print one compact JSON line on stdout: seconds, status, imported, message, records (plus what
// hooks.addFields adds) and vmhwm_kib. Returns the process exit status (0).
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
bool runImportChild(const char *name, const QString &file, const QString &workspace, ChildImport *out);

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

[[nodiscard]] inline const char *verdict(bool pass) { return pass ? "PASS" : "MISS"; }

} // namespace plumb::bench
