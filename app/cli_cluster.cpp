// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_cluster.h"
#include "cli_args.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QSaveFile>
#include <QStandardPaths>
#include <QThread>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <optional>
#include <utility>

using cli::err;
using cli::out;

namespace {

constexpr qsizetype kFilesPerTask = 8; // the default --tasks: one import task per 8 trace files
constexpr int kPollMs = 2000; // --wait: between two looks at the queue
// --wait: how long merge.status may take to show on this node after the merge job left the queue (a
// shared file system's attribute cache can hide a new file for up to a minute);
// $PLUMB_CLUSTER_STATUS_GRACE_S overrides it (the tests).
constexpr int kStatusGraceS = 60;

// A control character cannot be on one line of a script; sbatch reads the rest of an #SBATCH line.
bool hasControl(const QString &s)
{
    return std::any_of(s.begin(), s.end(), [](QChar c) { return c.unicode() < 0x20 || c.unicode() == 0x7f; });
}

// `s` as one word of sh: single quotes, a quote inside as '\''.
QString shellQuoted(const QString &s)
{
    return QLatin1Char('\'') + QString(s).replace(QLatin1Char('\''), QLatin1String("'\\''"))
        + QLatin1Char('\'');
}

// `s` as one value on an #SBATCH line, which sbatch splits itself, not a shell, in two ways: older versions
// know double quotes only, and take # as a comment's start even there; both stop a word at white space
// outside quotes, even after a backslash, and take a backslash as an escape otherwise. So: a backslash
// before each quote, backslash and #, and the whole in double quotes when it has white space.
QString sbatchEscaped(const QString &s)
{
    QString escaped;
    bool space = false;
    for (const QChar c : s) {
        space = space || c.isSpace();
        if (c == QLatin1Char('\'') || c == QLatin1Char('"') || c == QLatin1Char('\\')
            || c == QLatin1Char('#'))
            escaped += QLatin1Char('\\');
        escaped += c;
    }
    return space ? QLatin1Char('"') + escaped + QLatin1Char('"') : escaped;
}

struct Layout {
    QString plumb; // this binary: the compute nodes see the same file system
    QString jobDir; // absolute
    QString output; // JOB.plumb, absolute
    QString dir; // JOB.plumb.d
    int tasks = 1;
    qsizetype files = 0;

    [[nodiscard]] QString path(const char *name) const
    {
        return dir + QLatin1Char('/') + QLatin1String(name);
    }
};

// --partition, --account, --time and the --sbatch-arg lines, the same in both scripts.
QString sbatchOptions(const cli::ClusterArgs &a)
{
    QString lines;
    for (const auto &[option, value] : { std::pair { "partition", &a.partition },
             std::pair { "account", &a.account }, std::pair { "time", &a.time } })
        if (!value->isEmpty())
            lines += QStringLiteral("#SBATCH --%1=%2\n").arg(QLatin1String(option), sbatchEscaped(*value));
    for (const QString &arg : a.sbatchArgs)
        lines += QStringLiteral("#SBATCH ") + arg + QLatin1Char('\n');
    return lines;
}

// --output=FOLDER/NAME: FOLDER with its % doubled (sbatch's file name patterns read %A, %a, %j ...).
QString sbatchOutput(const Layout &l, const char *name)
{
    return QStringLiteral("#SBATCH --output=")
        + sbatchEscaped(QString(l.path("logs")).replace(QLatin1Char('%'), QLatin1String("%%"))
            + QLatin1Char('/') + QLatin1String(name))
        + QLatin1Char('\n');
}

QString importScript(const Layout &l, const cli::ClusterArgs &a)
{
    const QString n = QString::number(l.tasks);
    return QStringLiteral(
               "#!/bin/sh\n"
               "# The import of a multi-rank job, written by plumb cluster slurm: a Slurm array job whose\n"
               "# task K imports the ranks whose index modulo %1 is K into shards/shard-K-of-%1.plumb here;\n"
               "# then merge.sbatch builds the job workspace from the shards.\n"
               "# To redo task K (0 to %2), from this folder:\n"
               "#   sbatch --array=K import.sbatch\n"
               "# and then the merge: sbatch merge.sbatch\n")
               .arg(n, QString::number(l.tasks - 1))
        + QStringLiteral("#SBATCH --job-name=plumb-import\n#SBATCH --array=0-%1\n").arg(l.tasks - 1)
        + sbatchOutput(l, "import-%A_%a.out") + sbatchOptions(a) + QStringLiteral("set -eu\n")
        + QStringLiteral(
            ": \"${SLURM_ARRAY_TASK_ID:?submit this script with sbatch --array=K, K from 0 to %1}\"\n")
              .arg(l.tasks - 1)
        + QStringLiteral("exec ") + shellQuoted(l.plumb) + QStringLiteral(" import ") + shellQuoted(l.jobDir)
        + QStringLiteral(" --shard \"$SLURM_ARRAY_TASK_ID/%1\" --workspace ").arg(n)
        + shellQuoted(l.path("shards") + QStringLiteral("/shard-"))
        + QStringLiteral("\"$SLURM_ARRAY_TASK_ID\"") + shellQuoted(QStringLiteral("-of-%1.plumb").arg(n))
        + QLatin1Char('\n');
}

QString mergeScript(const Layout &l, const cli::ClusterArgs &a)
{
    const QString status = shellQuoted(l.path("merge.status"));
    const QString temporary
        = shellQuoted(l.path("merge.status") + QLatin1Char('.')) + QStringLiteral("\"$$\"");
    return QStringLiteral(
               "#!/bin/sh\n"
               "# The merge of a multi-rank job, written by plumb cluster slurm: builds the job workspace\n"
               "# from the shards that import.sbatch's tasks wrote, then writes plumb merge's exit status\n"
               "# into merge.status here (0: every rank merged; 1: ranks missing or failed, as the log "
               "says).\n"
               "# plumb cluster slurm submits it after the import's tasks (--dependency=afterany:ID).\n"
               "# To run it again, from this folder:\n"
               "#   sbatch merge.sbatch\n"
               "#SBATCH --job-name=plumb-merge\n")
        + sbatchOutput(l, "merge-%j.out") + sbatchOptions(a) + QStringLiteral("set -u\nstatus=0\n")
        + shellQuoted(l.plumb) + QStringLiteral(" merge ") + shellQuoted(l.path("shards"))
        + QStringLiteral(" -o ") + shellQuoted(l.output)
        + QStringLiteral(" || status=$?\n") // a reader of merge.status never sees half of it:
        + QStringLiteral("printf '%s\\n' \"$status\" >") + temporary + QStringLiteral(" && mv -f ")
        + temporary + QLatin1Char(' ') + status + QStringLiteral("\nexit \"$status\"\n");
}

bool writeScript(const QString &path, const QString &text)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        err(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    QFile::setPermissions(path,
        QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup
            | QFile::ReadOther | QFile::ExeOther);
    return true;
}

// A program's run to its end.
struct Ran {
    bool started = false;
    int exitCode = -1; // -1 when it crashed
    QString out;
    QString err; // trimmed
};

Ran runTool(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.start(program, arguments, QIODevice::ReadOnly);
    Ran r;
    if (!process.waitForStarted(-1)) {
        r.err = process.errorString();
        return r;
    }
    r.started = true;
    process.waitForFinished(-1);
    r.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    r.out = QString::fromLocal8Bit(process.readAllStandardOutput());
    r.err = QString::fromLocal8Bit(process.readAllStandardError()).trimmed();
    return r;
}

// A Slurm job: `sbatch --parsable` prints ID, or ID;CLUSTER.
struct JobId {
    QString id;
    QString cluster;
};

std::optional<JobId> parseJobId(const QString &sbatchOut)
{
    const QStringList lines = sbatchOut.trimmed().split(QLatin1Char('\n'));
    const QString last = lines.back().trimmed();
    JobId job { last.section(QLatin1Char(';'), 0, 0).trimmed(), last.section(QLatin1Char(';'), 1).trimmed() };
    bool number = false;
    job.id.toULongLong(&number);
    if (!number)
        return std::nullopt;
    return job;
}

QString missingTool(const QString &name)
{
    return QStringLiteral("%1 was not found on PATH: this machine is not a Slurm login node (or Slurm's "
                          "client is not installed); `plumb cluster slurm ... --dry-run` writes the scripts "
                          "without submitting them")
        .arg(name);
}

std::optional<JobId> submit(const QString &sbatch, const QStringList &arguments, const QString &what)
{
    const Ran r = runTool(sbatch, arguments);
    std::optional<JobId> job = r.exitCode == 0 ? parseJobId(r.out) : std::nullopt;
    if (!job) {
        const QString why = !r.started ? QStringLiteral("it did not start: %1").arg(r.err)
            : r.exitCode == -1         ? QStringLiteral("it crashed")
            : r.exitCode != 0          ? QStringLiteral("exit status %1").arg(r.exitCode)
                                       : QStringLiteral("it printed no job id: %1").arg(r.out.trimmed());
        err(QStringLiteral("sbatch could not submit %1 (%2)%3")
                .arg(what, why, r.started && !r.err.isEmpty() ? QStringLiteral(":\n") + r.err : QString()));
    }
    return job;
}

// What `squeue` lists of a job: its state, one a task for an array job (-r); empty once it left the queue.
struct Queued {
    bool ok = false;
    QStringList states;
    QString error;
};

Queued queued(const QString &squeue, const JobId &job, bool array)
{
    QStringList arguments { QStringLiteral("-h"), QStringLiteral("-j"), job.id, QStringLiteral("-o"),
        QStringLiteral("%T") };
    if (array)
        arguments << QStringLiteral("-r");
    if (!job.cluster.isEmpty())
        arguments << QStringLiteral("--clusters=") + job.cluster;
    const Ran r = runTool(squeue, arguments);
    Queued q;
    // A job that ended a while ago is forgotten by the controller: squeue -j calls its id invalid.
    if (r.exitCode != 0 && !r.err.contains(QLatin1String("Invalid job id"), Qt::CaseInsensitive)) {
        q.error = r.started ? QStringLiteral("squeue failed (exit status %1): %2").arg(r.exitCode).arg(r.err)
                            : QStringLiteral("squeue did not start: %1").arg(r.err);
        return q;
    }
    q.ok = true;
    if (r.exitCode == 0)
        for (const QString &line : r.out.split(QLatin1Char('\n'))) {
            const QString state = line.trimmed();
            if (!state.isEmpty() && !state.startsWith(QLatin1String("CLUSTER:"))) // --clusters' heading
                q.states << state;
        }
    return q;
}

// "2 RUNNING, 1 PENDING": the count of each state, most first.
QString stateCounts(const QStringList &states)
{
    QMap<QString, int> counts;
    for (const QString &s : states)
        ++counts[s];
    QList<std::pair<int, QString>> sorted;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        sorted.append({ -it.value(), it.key() });
    std::sort(sorted.begin(), sorted.end());
    QStringList parts;
    for (const auto &[count, state] : sorted)
        parts << QStringLiteral("%1 %2").arg(-count).arg(state);
    return parts.join(QStringLiteral(", "));
}

// Set by SIGINT/SIGTERM while --wait waits: the waiting stops, the jobs go on.
volatile std::sig_atomic_t g_stopSignal = 0;

extern "C" void onStopWaiting(int signal)
{
    g_stopSignal = signal;
}

// Sleeps `ms`, less when a signal stops the waiting.
void pause(int ms)
{
    for (int slept = 0; slept < ms && !g_stopSignal; slept += 100)
        QThread::msleep(100);
}

void progress(const QString &line)
{
    out(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss  ")) + line + QLatin1Char('\n'));
    std::fflush(stdout);
}

// --wait: follows the jobs until the merge leaves the queue or its status file appears, then prints its log
// and returns its exit status (0 or 1).
int waitForMerge(const QString &squeue, const JobId &import, const JobId &merge, const Layout &l)
{
    const QString statusPath = l.path("merge.status");
    const QString log = l.path("logs") + QStringLiteral("/merge-%1.out").arg(merge.id);
    std::signal(SIGINT, onStopWaiting);
    std::signal(SIGTERM, onStopWaiting);
    progress(QStringLiteral("waiting for the merge job %1 (Ctrl+C stops waiting; the jobs keep running)")
                 .arg(merge.id));
    QString shown, failure;
    bool left = false;
    while (!g_stopSignal && !QFileInfo::exists(statusPath)) {
        const Queued tasks = queued(squeue, import, true);
        const Queued merging = queued(squeue, merge, false);
        if (!tasks.ok || !merging.ok) { // the controller may be busy or restarting: try again
            if (const QString e = tasks.ok ? merging.error : tasks.error; e != failure)
                err(failure = e);
        } else {
            failure.clear();
            const QString now = QStringLiteral("import: %1; merge: %2")
                                    .arg(tasks.states.isEmpty() ? QStringLiteral("no task in the queue")
                                                                : stateCounts(tasks.states),
                                        merging.states.isEmpty() ? QStringLiteral("left the queue")
                                                                 : merging.states.join(QLatin1Char(',')));
            if (now != shown)
                progress(shown = now);
            if (merging.states.isEmpty()) {
                left = true;
                break;
            }
        }
        pause(kPollMs);
    }
    if (left && !QFileInfo::exists(statusPath)) {
        bool ok = false;
        int graceS = qEnvironmentVariableIntValue("PLUMB_CLUSTER_STATUS_GRACE_S", &ok);
        if (!ok || graceS < 0)
            graceS = kStatusGraceS;
        for (int waitedMs = 0; waitedMs < graceS * 1000 && !g_stopSignal && !QFileInfo::exists(statusPath);
             waitedMs += 500)
            pause(500);
    }
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    if (const int signal = g_stopSignal) {
        err(QStringLiteral("stopped waiting; the jobs keep running (squeue -j %1,%2 follows them, scancel %1 "
                           "%2 cancels them); the merge writes %3 and its status into %4")
                .arg(import.id, merge.id, l.output, statusPath));
        std::fflush(stdout);
        std::raise(signal); // the shell sees the interrupt
        return 1;
    }
    QFile status(statusPath);
    if (!status.open(QIODevice::ReadOnly)) {
        err(QStringLiteral(
            "the merge job %1 left the queue without writing %2 (cancelled, out of time or not "
            "started?): see its log %3%4")
                .arg(merge.id, statusPath, log,
                    QFileInfo::exists(log) ? QString()
                                           : QStringLiteral(" (not there) and `sacct -j %1`").arg(merge.id)));
        return 1;
    }
    bool number = false;
    const int code = QString::fromLatin1(status.readAll()).trimmed().toInt(&number);
    QFile logFile(log);
    if (logFile.open(QIODevice::ReadOnly)) {
        out(QStringLiteral("--- the merge's log, %1:\n").arg(log));
        const QString text = QString::fromLocal8Bit(logFile.readAll());
        out(text.endsWith(QLatin1Char('\n')) || text.isEmpty() ? text : text + QLatin1Char('\n'));
        out(QStringLiteral("---\n"));
    } else {
        err(QStringLiteral("no merge log at %1").arg(log));
    }
    if (number && code == 0) {
        out(QStringLiteral("every rank merged into %1\n").arg(l.output));
        return 0;
    }
    if (number && code == 1)
        err(QStringLiteral("ranks are missing or failed (the log names them); %1 has the others")
                .arg(l.output));
    else
        err(QStringLiteral("the merge failed (%1): see its log %2")
                .arg(number ? QStringLiteral("exit status %1").arg(code)
                            : QStringLiteral("%1 is not a status").arg(statusPath),
                    log));
    return 1;
}

// Files that an earlier submission left where this one writes: its shards (the merge takes every shard in
// the folder) and its merge's status (--wait would read it).
void removeStale(const Layout &l)
{
    QDir shards(l.path("shards"));
    int removed = 0;
    for (const QString &name : shards.entryList({ QStringLiteral("shard-*") }, QDir::Files | QDir::Hidden))
        removed += int(shards.remove(name));
    if (removed)
        out(QStringLiteral("removed %1 shard file(s) of an earlier submission from %2\n")
                .arg(removed)
                .arg(shards.path()));
    QFile::remove(l.path("merge.status"));
}

} // namespace

namespace cli {

int parseClusterArgs(const QStringList &arguments, ClusterArgs &a)
{
    CommandLine line(*findCommand(QStringLiteral("cluster")));
    if (const int status = line.parse(arguments); status >= 0)
        return status;
    const QStringList positional = line.positional();
    if (positional.isEmpty())
        return line.usageError(
            QStringLiteral("cluster needs a backend, slurm: plumb cluster slurm JOBDIR -o JOB.plumb"));
    a.backend = positional.front();
    if (a.backend != QLatin1String("slurm"))
        return line.usageError(
            QStringLiteral("the cluster backend is slurm (the only one), not %1").arg(a.backend));
    if (positional.size() != 2)
        return line.usageError(positional.size() < 2
                ? QStringLiteral("cluster slurm needs JOBDIR, the folder of the job's trace files")
                : QStringLiteral("cluster slurm takes one JOBDIR, not %1")
                      .arg(positional.mid(1).join(QLatin1Char(' '))));
    a.jobDir = positional[1];
    if (line.isSet("workspace"))
        return line.usageError(
            QStringLiteral("cluster writes the job workspace named by -o JOB.plumb, not --workspace"));
    a.output = line.value("output");
    if (a.output.isEmpty())
        return line.usageError(
            QStringLiteral("cluster slurm needs -o JOB.plumb, the job workspace to write"));
    if (line.isSet("tasks")) {
        bool ok = false;
        a.tasks = line.value("tasks").toInt(&ok);
        if (!ok || a.tasks < 1)
            return line.usageError(QStringLiteral(
                "--tasks needs a number of import tasks, 1 to the number of trace files; not %1")
                                       .arg(line.value("tasks")));
    }
    for (const auto &[option, value] : { std::pair { "partition", &a.partition },
             std::pair { "account", &a.account }, std::pair { "time", &a.time } }) {
        *value = line.value(option);
        if (line.isSet(option) && (value->isEmpty() || hasControl(*value)))
            return line.usageError(
                QStringLiteral("--%1 needs a value on one line").arg(QLatin1String(option)));
    }
    a.sbatchArgs = line.values("sbatch-arg");
    for (const QString &arg : std::as_const(a.sbatchArgs))
        if (!arg.startsWith(QLatin1Char('-')) || hasControl(arg))
            return line.usageError(QStringLiteral(
                "--sbatch-arg takes an sbatch option on one line, e.g. --sbatch-arg=--mem=16G; not %1")
                                       .arg(arg));
    a.dryRun = line.isSet("dry-run");
    a.wait = line.isSet("wait");
    if (a.dryRun && a.wait)
        return line.usageError(
            QStringLiteral("--wait waits for the jobs submitted, and --dry-run submits none"));
    return -1;
}

} // namespace cli

int runCluster(const cli::ClusterArgs &a)
{
    const cli::CommandLine usage(*cli::findCommand(QStringLiteral("cluster")));
    const QFileInfo jobDir(a.jobDir);
    if (!jobDir.isDir()) {
        err(QStringLiteral("%1 is not a folder: JOBDIR is the folder of the job's trace files")
                .arg(a.jobDir));
        return 1;
    }
    Layout l;
    l.jobDir = QDir::cleanPath(jobDir.absoluteFilePath());
    l.files = QDir(l.jobDir).entryList(QDir::Files).size(); // not hidden, the top level
    if (l.files == 0) {
        err(QStringLiteral("%1 has no trace files: plumb cluster imports the files at its top level")
                .arg(l.jobDir));
        return 1;
    }
    if (a.tasks > l.files)
        return usage.usageError(
            QStringLiteral("--tasks %1 is more than the %2 trace file(s) in %3 (a task imports "
                           "a shard of them)")
                .arg(a.tasks)
                .arg(l.files)
                .arg(l.jobDir));
    l.tasks = a.tasks > 0
        ? a.tasks
        : int(std::clamp((l.files + kFilesPerTask - 1) / kFilesPerTask, qsizetype(1), l.files));
    const QFileInfo output(a.output);
    if (output.isDir())
        return usage.usageError(
            QStringLiteral("-o names the job workspace, a file; %1 is a folder").arg(a.output));
    if (!QFileInfo(output.absolutePath()).isDir()) {
        err(QStringLiteral("cannot write %1: there is no folder %2").arg(a.output, output.absolutePath()));
        return 1;
    }
    l.output = QDir::cleanPath(output.absoluteFilePath());
    l.dir = l.output + QStringLiteral(".d");
    // sbatch would read a backslash in an --output file name as "no %A, %j ... here".
    if (hasControl(l.dir) || l.dir.contains(QLatin1Char('\\'))) {
        err(QStringLiteral(
            "%1 cannot be named on an #SBATCH line (it has a backslash or a control character): "
            "give another -o")
                .arg(l.dir));
        return 1;
    }
    l.plumb = QFileInfo(QCoreApplication::applicationFilePath()).absoluteFilePath();

    QString sbatch, squeue;
    if (!a.dryRun) {
        sbatch = QStandardPaths::findExecutable(QStringLiteral("sbatch"));
        if (sbatch.isEmpty()) {
            err(missingTool(QStringLiteral("sbatch")));
            return 1;
        }
        if (a.wait && (squeue = QStandardPaths::findExecutable(QStringLiteral("squeue"))).isEmpty()) {
            err(missingTool(QStringLiteral("squeue"))
                + QStringLiteral(", and without --wait the jobs are submitted "
                                 "without being followed"));
            return 1;
        }
    }

    if (!QDir().mkpath(l.path("shards")) || !QDir().mkpath(l.path("logs"))) {
        err(QStringLiteral("cannot create the folders %1 and %2").arg(l.path("shards"), l.path("logs")));
        return 1;
    }
    const QString importPath = l.path("import.sbatch"), mergePath = l.path("merge.sbatch");
    if (!writeScript(importPath, importScript(l, a)) || !writeScript(mergePath, mergeScript(l, a)))
        return 1;
    const QString files
        = l.files == 1 ? QStringLiteral("1 trace file") : QStringLiteral("%1 trace files").arg(l.files);
    const QString tasks = l.tasks == 1 ? QStringLiteral("1 task") : QStringLiteral("%1 tasks").arg(l.tasks);

    if (a.dryRun) {
        out(QStringLiteral("wrote %1 (an array of %2 for the %3 in %4) and %5\n"
                           "would run:\n"
                           "  sbatch --parsable %6\n"
                           "  sbatch --parsable --dependency=afterany:<import job id> %7\n"
                           "nothing was submitted (--dry-run)\n")
                .arg(importPath, tasks, files, l.jobDir, mergePath, shellQuoted(importPath),
                    shellQuoted(mergePath)));
        return 0;
    }

    removeStale(l);
    const std::optional<JobId> import = submit(sbatch, { QStringLiteral("--parsable"), importPath },
        QStringLiteral("the import (%1)").arg(importPath));
    if (!import)
        return 1;
    const std::optional<JobId> merge = submit(sbatch,
        { QStringLiteral("--parsable"), QStringLiteral("--dependency=afterany:") + import->id, mergePath },
        QStringLiteral("the merge (%1)").arg(mergePath));
    if (!merge) {
        err(QStringLiteral("the import job %1 is queued: scancel %1 cancels it, or submit the merge after it "
                           "yourself: sbatch --dependency=afterany:%1 %2")
                .arg(import->id, shellQuoted(mergePath)));
        return 1;
    }

    QJsonObject jobs {
        { QStringLiteral("backend"), QStringLiteral("slurm") },
        { QStringLiteral("import_job"), import->id.toLongLong() },
        { QStringLiteral("merge_job"), merge->id.toLongLong() },
        { QStringLiteral("tasks"), l.tasks },
        { QStringLiteral("trace_files"), l.files },
        { QStringLiteral("job_dir"), l.jobDir },
        { QStringLiteral("output"), l.output },
        { QStringLiteral("folder"), l.dir },
        { QStringLiteral("shards"), l.path("shards") },
        { QStringLiteral("logs"), l.path("logs") },
        { QStringLiteral("import_script"), importPath },
        { QStringLiteral("merge_script"), mergePath },
        { QStringLiteral("merge_status"), l.path("merge.status") },
        { QStringLiteral("submitted"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate) },
    };
    if (!import->cluster.isEmpty())
        jobs.insert(QStringLiteral("import_cluster"), import->cluster);
    if (!merge->cluster.isEmpty())
        jobs.insert(QStringLiteral("merge_cluster"), merge->cluster);
    QSaveFile jobsFile(l.path("jobs.json"));
    if (!jobsFile.open(QIODevice::WriteOnly) || jobsFile.write(cli::jsonText(jobs).toUtf8()) < 0
        || !jobsFile.commit())
        err(QStringLiteral("cannot write %1: %2 (the jobs are submitted)")
                .arg(jobsFile.fileName(), jobsFile.errorString()));

    out(QStringLiteral("submitted the import as Slurm job %1, an array of %2 for the %3 in %4\n"
                       "submitted the merge as Slurm job %5, after the import: it writes %6\n"
                       "shards: %7/\n"
                       "logs:   %8/\n"
                       "follow: squeue -j %1,%5\n")
            .arg(import->id, tasks, files, l.jobDir, merge->id, l.output, l.path("shards"), l.path("logs")));
    std::fflush(stdout);
    if (!a.wait)
        return 0;
    return waitForMerge(squeue, *import, *merge, l);
}
