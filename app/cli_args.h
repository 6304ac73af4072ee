// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/goodput.h"
#include "analysis/gpuops.h"
#include "analysis/objectivecheck.h"
#include "analysis/steptime.h"
#include "ingest/importoptions.h"
#include "job/shard.h"
#include "present/querypresent.h"
#include "report/reportoptions.h"
#include "store/lineagereader.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QJsonObject>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace plumb {
class Workspace;
}

// The command line of `plumb COMMAND ...`: one QCommandLineParser per subcommand (its options are listed in
// cli_args.cpp beside its usage), so `--opt=value` and `--opt value` both work, `--` ends the options,
// `plumb COMMAND --help` prints that command's usage and exits 0, and an unknown option is a usage error
// (exit 2, with the command's usage). Shared by `plumb` and `plumb-ui --report`.
namespace cli {

// A subcommand: its name, its synopsis ("plumb doctor [TRACE-ID...] [OPTIONS]"), what it does, and its
// options (--workspace and --help come with every one).
struct Command {
    QString name;
    QString synopsis;
    QString description;
    QList<QCommandLineOption> options;
};

// Every subcommand, in the order `plumb --help` lists them.
[[nodiscard]] const QList<Command> &commands();

// The subcommand named `name`, else nullptr.
[[nodiscard]] const Command *findCommand(const QString &name);

// `plumb COMMAND --help`: the synopsis, the description and every option with its value and meaning.
[[nodiscard]] QString commandHelp(const Command &command);

// A subcommand's command line, parsed.
class CommandLine {
public:
    explicit CommandLine(const Command &command);

    // Parses `arguments` (the command's own: what follows "plumb COMMAND"). Returns -1 when the command
    // should run, else the exit status: 0 after printing the help asked for, 2 after a usage error (the
    // message and the command's usage on stderr).
    int parse(const QStringList &arguments);

    [[nodiscard]] bool isSet(const char *option) const { return m_parser.isSet(QLatin1String(option)); }
    [[nodiscard]] QString value(const char *option) const { return m_parser.value(QLatin1String(option)); }
    [[nodiscard]] QStringList values(const char *option) const
    {
        return m_parser.values(QLatin1String(option));
    }
    [[nodiscard]] QStringList positional() const { return m_parser.positionalArguments(); }
    // --workspace, else $PLUMB_WORKSPACE, else the default workspace.
    [[nodiscard]] QString workspace() const;
    // Prints "plumb COMMAND: message" and the command's usage to stderr; returns 2 (a usage error).
    int usageError(const QString &message) const;

private:
    const Command &m_command;
    QCommandLineParser m_parser;
};

// `plumb COMMAND ...` as the commands that share it read it (import, ls, doctor, diff, lineage, goodput,
// check): each reads only its own fields.
struct Args {
    QString command;
    QStringList paths; // the positional arguments: paths, trace ids, run ids or names, a lineage node
    QString workspace;
    bool json = false;
    bool diagnostics = false; // ls --diagnostics
    plumb::GpuOpMode mode = plumb::GpuOpMode::EveryOp; // doctor/diff --mode
    plumb::StepTimeOptions stepTime; // doctor/diff --input-annotations
    bool criticalPath = false; // doctor --critical-path
    bool job = false; // doctor --job
    bool fromEvents = false; // doctor/diff --from-events
    QString step; // doctor --step: the critical path's step (empty: the default); calltree --step
    QString thread; // calltree --thread
    bool samples = false; // calltree --samples
    bool bottomUp = false; // calltree --bottom-up
    plumb::ImportOptions importOptions; // import: --step-column and the other column roles
    bool config = false; // diff --config: experiment runs, not traces
    bool allRows = false; // diff --config --all
    plumb::LineageDirection lineageDirection = plumb::LineageDirection::Both; // lineage --up / --down
    int lineageDepth = 5; // lineage --depth
    bool watch = false; // import --watch: live mode
    int intervalMs = 2000; // import --watch --interval
    int jobs = 0; // import --jobs (0: half the cores)
    double writeWaitSeconds = -1; // import --wait (-1: Workspace::writeWait())
    std::optional<plumb::ShardSpec> shard; // import --shard
    QString output; // merge -o
    plumb::GoodputOptions goodput; // goodput --flops-per-step, --peak-flops, --interval
    QString objectivesPath; // check --objectives
    QString junitPath; // check --junit
    bool allowMissing = false; // check --allow-missing
    plumb::CheckOptions check; // check --run, --baseline
    plumb::QueryFormat queryFormat = plumb::QueryFormat::Table; // query --csv, --json, --table
    QString sql; // query: the statement (its words joined)
};

// Parses `plumb COMMAND ARGUMENTS...` into `args`. Returns -1 when the command should run, else the exit
// status (0 after --help, 2 after a usage error, reported on stderr).
int parseArgs(const QString &command, const QStringList &arguments, Args &args);

// `plumb report ...`: parsed by `plumb` (which then runs `plumb-ui --report` with the same arguments) and
// by `plumb-ui --report`. Options given on the command line win over the template's.
struct ReportArgs {
    QString workspace;
    QString output;
    QString templatePath;
    plumb::ReportOptions options;
};

// Parses the arguments that follow "plumb report". Returns -1 when the report should be written, else
// the exit status (0 after --help, 2 after a usage error or a bad template, reported on stderr).
int parseReportArgs(const QStringList &arguments, ReportArgs &args);

// `plumb export TRACE-ID|--run RUN ... -o PATH` (issue 33), parsed. Times are ns after the trace's start.
struct ExportArgs {
    QString workspace;
    QString traceId; // the positional TRACE-ID, or empty with `run`
    QString run; // --run: every trace of the run
    QString output;
    bool gzip = false; // .json.gz (always, for a run's folder)
    bool singleFile = false;
    int64_t fromNs = INT64_MIN;
    int64_t toNs = INT64_MAX;
    QList<int64_t> ranks; // --ranks; empty: every rank
};

// Parses the arguments that follow "plumb export". Returns -1 when the export should run, else the
// exit status (0 after --help, 2 after a usage error, reported on stderr).
int parseExportArgs(const QStringList &arguments, ExportArgs &args);

// Opens the workspace at `path` for reading and returns what `body` returns. When there is no file there
// ("no workspace at PATH; HINT") or it cannot be read as a workspace ("cannot read the workspace PATH:
// why"), says so and returns `failure` (the exit status: 1, for check 2). The file is never written.
int withWorkspace(const QString &path, const QString &hint,
    const std::function<int(plumb::Workspace &)> &body, int failure = 1);

// What the command line says when the workspace at `path` cannot be opened: "PATH is not a Plumb
// workspace (...)" for a file of another kind, else "cannot use the workspace PATH: why".
[[nodiscard]] QString workspaceError(const QString &path, const std::exception &error);

// `object` as the indented JSON text a --json output prints.
[[nodiscard]] QString jsonText(const QJsonObject &object);

// Writes `s` to stdout as it is.
void out(const QString &s);

// Writes "plumb: " + `s` and a line end to stderr.
void err(const QString &s);

} // namespace cli
