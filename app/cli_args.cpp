// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_args.h"

#include "export/chromeexport.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "tabular/tabularlayout.h"
#include "text/textformat.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>

#include <cmath>
#include <cstdio>
#include <sqlite3.h>

using namespace plumb;

namespace cli {

namespace {

QCommandLineOption flag(const QString &name, const QString &description)
{
    return QCommandLineOption(name, description);
}

QCommandLineOption valued(const QStringList &names, const QString &valueName, const QString &description)
{
    return QCommandLineOption(names, description, valueName);
}

QCommandLineOption valued(const QString &name, const QString &valueName, const QString &description)
{
    return QCommandLineOption(name, description, valueName);
}

QCommandLineOption jsonOption(const QString &what)
{
    return flag(QStringLiteral("json"),
        QStringLiteral("print %1 as one JSON object (docs/json.md describes its fields)").arg(what));
}

QCommandLineOption modeOption()
{
    return valued(QStringLiteral("mode"), QStringLiteral("every|linked|hta"),
        QStringLiteral(
            "which GPU ops count: every (default), linked (only those the traced program launched) "
            "or hta (as Holistic Trace Analysis counts)"));
}

QCommandLineOption inputAnnotationsOption()
{
    return valued(QStringLiteral("input-annotations"), QStringLiteral("REGEX"),
        QStringLiteral("also count CPU ranges whose name matches REGEX as the input pipeline in step time "
                       "(besides DataLoader's; repeatable)"));
}

QCommandLineOption fromEventsOption()
{
    return flag(QStringLiteral("from-events"),
        QStringLiteral("compute everything from the traces' events instead of reading the summaries stored "
                       "at import (the same figures, slower)"));
}

QList<Command> makeCommands()
{
    QList<Command> c;
    c.append({ QStringLiteral("import"),
        QStringLiteral(
            "plumb import PATH... [--workspace FILE] [--json] [--jobs N] [--wait SECONDS] [--watch "
            "[--interval SECONDS]] [--shard I/N|auto [--shards N]] [column roles]"),
        QStringLiteral(
            "Import files and folders into the workspace. --watch then keeps importing what is "
            "added or appended to them until Ctrl+C. --shard imports one task's part of a job's ranks "
            "(ranks in order, every N-th from I) into the shard workspace --workspace names, for plumb "
            "merge (docs/cluster.md). CSV/JSONL metric logs: the column-role options set roles instead "
            "of the detected ones."),
        {
            jsonOption(QStringLiteral("what was imported")),
            valued(QStringLiteral("jobs"), QStringLiteral("N"),
                QStringLiteral("traces read at once, 1 to 256 (default: half the cores; the ranks of a job "
                               "import in parallel)")),
            valued(QStringLiteral("wait"), QStringLiteral("SECONDS"),
                QStringLiteral("while another process writes the workspace, wait this long before a file "
                               "fails, 0 to 86400 (default 300, or PLUMB_WRITE_WAIT)")),
            flag(QStringLiteral("watch"),
                QStringLiteral("then keep importing what is added or appended to the paths until Ctrl+C")),
            valued(QStringLiteral("interval"), QStringLiteral("SECONDS"),
                QStringLiteral("--watch: seconds between looks, 0.05 to 3600 (default 2)")),
            valued(QStringLiteral("shard"), QStringLiteral("I/N|auto"),
                QStringLiteral(
                    "import only this task's ranks: those whose place in rank order modulo N is I; "
                    "auto takes I from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX")),
            valued(QStringLiteral("shards"), QStringLiteral("N"),
                QStringLiteral("with --shard auto: the number of tasks")),
            valued(QStringLiteral("step-column"), QStringLiteral("NAME"), QStringLiteral("the step column")),
            valued(QStringLiteral("time-column"), QStringLiteral("NAME"),
                QStringLiteral("the wall-time column")),
            valued(QStringLiteral("run-column"), QStringLiteral("NAME"),
                QStringLiteral("the column naming each row's run")),
            valued(QStringLiteral("long"), QStringLiteral("KEY-COLUMN,VALUE-COLUMN"),
                QStringLiteral("a long log: one metric name and value per row")),
            valued(QStringLiteral("column"), QStringLiteral("NAME=ROLE"),
                QStringLiteral(
                    "a column's role (repeatable): run, step, time, key, value, metric, param, "
                    "ignore; request logs: latency, ttft, itl, tokens_in, tokens_out, status, model, "
                    "endpoint")),
        } });
    c.append({ QStringLiteral("merge"), QStringLiteral("plumb merge SHARDDIR -o JOB.plumb [--json]"),
        QStringLiteral(
            "Build a job's workspace from the shards of a sharded import (plumb import --shard) by their "
            "summaries alone: every rank's figures and verdict, where its events are, the collectives "
            "matched across ranks. A missing or failed shard's ranks are reported missing (exit status "
            "1); run it again once the shard is redone. Shards of another job are refused."),
        {
            valued(QStringList { QStringLiteral("o"), QStringLiteral("output") }, QStringLiteral("JOB.plumb"),
                QStringLiteral("the job workspace to write (replaced when it exists)")),
            jsonOption(QStringLiteral("what was merged")),
        } });
    c.append({ QStringLiteral("ls"), QStringLiteral("plumb ls [--workspace FILE] [--json] [--diagnostics]"),
        QStringLiteral("List the workspace's runs, traces, experiment logs, lineage and sources."),
        {
            jsonOption(QStringLiteral("the listing")),
            flag(QStringLiteral("diagnostics"), QStringLiteral("also what was odd in each source")),
        } });
    c.append({ QStringLiteral("doctor"),
        QStringLiteral("plumb doctor [TRACE-ID...] [--mode every|linked|hta] [--input-annotations REGEX] "
                       "[--critical-path [--step NAME]] [--from-events] [--workspace FILE] [--json]\n"
                       "plumb doctor --job [--workspace FILE] [--json]"),
        QStringLiteral("Where each trace's time goes, per step and on its GPU, and what limits it (every "
                       "trace when none is given). --job: the multi-rank job instead (a workspace from plumb "
                       "merge, or the largest run of several ranks): each rank's step time and verdict, who "
                       "the collectives waited for, the job's verdict."),
        { modeOption(), inputAnnotationsOption(),
            flag(QStringLiteral("job"),
                QStringLiteral("the job at a glance, read from the summaries: ranks, straggler, verdict")),
            flag(QStringLiteral("critical-path"),
                QStringLiteral("also the critical path of one step and what bounds it (Holistic Trace "
                               "Analysis's model with --mode hta, Plumb's otherwise)")),
            valued(QStringLiteral("step"), QStringLiteral("NAME"),
                QStringLiteral("with --critical-path: the step (e.g. ProfilerStep#7; default: the second, or "
                               "the only one)")),
            fromEventsOption(), jsonOption(QStringLiteral("the findings")) } });
    c.append({ QStringLiteral("calltree"),
        QStringLiteral("plumb calltree TRACE-ID [--step NAME] [--thread TID] [--samples] [--bottom-up] "
                       "[--workspace FILE] [--json]"),
        QStringLiteral("What the host did: the call tree of a trace's CPU work (nested slices: ops, Python "
                       "frames, NVTX ranges; or CPU samples' backtraces) with total and self time per call, "
                       "every CPU thread's over the whole trace unless a thread or step is named."),
        {
            valued(QStringLiteral("step"), QStringLiteral("NAME"),
                QStringLiteral("only that step (e.g. ProfilerStep#7, or its number)")),
            valued(QStringLiteral("thread"), QStringLiteral("TID"),
                QStringLiteral("only that thread (its id as the trace writes it) and its CUDA API calls")),
            flag(QStringLiteral("samples"),
                QStringLiteral("from the CPU samples' backtraces (Nsight Systems --sample), not the slices")),
            flag(QStringLiteral("bottom-up"),
                QStringLiteral("each function with its callers below it (self time where it is spent)")),
            jsonOption(QStringLiteral("the tree")),
        } });
    c.append({ QStringLiteral("diff"),
        QStringLiteral(
            "plumb diff BASELINE-ID TRACE-ID [--mode every|linked|hta] [--input-annotations REGEX]... "
            "[--from-events] [--workspace FILE] [--json]\n"
            "plumb diff --config RUN RUN [RUN...] [--all] [--workspace FILE] [--json]"),
        QStringLiteral(
            "What changed between two traces: the step time (mean per step) and the parts that "
            "explain its change, largest first; then the GPU window, per step when both have steps, "
            "split by category and by GPU op. With --config: experiment runs (ids or names) side by side, "
            "the params, "
            "tags and environment that differ, each metric's last value and change from the "
            "first run."),
        {
            modeOption(),
            inputAnnotationsOption(),
            fromEventsOption(),
            flag(QStringLiteral("config"), QStringLiteral("compare experiment runs, not traces")),
            flag(QStringLiteral("all"), QStringLiteral("--config: every row, not only those that differ")),
            jsonOption(QStringLiteral("the comparison")),
        } });
    c.append({ QStringLiteral("lineage"),
        QStringLiteral("plumb lineage NODE [--up|--down] [--depth N] [--workspace FILE] [--json]"),
        QStringLiteral("What a lineage node (id, key or name) was made from (--up), what was made from it "
                       "(--down), or both (default)."),
        {
            flag(QStringLiteral("up"), QStringLiteral("only what the node was made from")),
            flag(QStringLiteral("down"), QStringLiteral("only what was made from the node")),
            valued(QStringLiteral("depth"), QStringLiteral("N"),
                QStringLiteral("edges to follow, 1 to 1000 (default 5)")),
            jsonOption(QStringLiteral("the subgraph")),
        } });
    c.append({ QStringLiteral("goodput"),
        QStringLiteral("plumb goodput [RUN] [--workspace FILE] [--json] [--flops-per-step N --peak-flops N] "
                       "[--interval SECONDS]"),
        QStringLiteral("How much of a job's time was productive training (goodput) and where the rest went "
                       "(badput), from its lifecycle log or its logged steps' wall times. RUN is an id or a "
                       "name (default: the newest job that has either)."),
        {
            jsonOption(QStringLiteral("the breakdown")),
            valued(QStringLiteral("flops-per-step"), QStringLiteral("N"),
                QStringLiteral(
                    "model FLOPs of one training step, all devices (for model FLOPs utilisation)")),
            valued(QStringLiteral("peak-flops"), QStringLiteral("N"),
                QStringLiteral("peak FLOP/s of all devices together")),
            valued(QStringLiteral("interval"), QStringLiteral("SECONDS"),
                QStringLiteral("window of the goodput-over-time series (default: about 48 windows)")),
        } });
    c.append(
        { QStringLiteral("memory"), QStringLiteral("plumb memory [TRACE-ID] [--workspace FILE] [--json]"),
            QStringLiteral(
                "Where a trace's memory went, per device: allocated and reserved at the peak, the "
                "allocations live at the peak with the ops that made them, the largest allocations, and "
                "what the caching allocator held beyond what was allocated. From PyTorch's memory events "
                "(profile_memory=True), else Nsight's memory counters (allocated only). TRACE-ID "
                "defaults to the last imported trace."),
            {
                jsonOption(QStringLiteral("the peaks and allocations")),
            } });
    c.append({ QStringLiteral("check"),
        QStringLiteral("plumb check --objectives FILE [--run RUN] [--baseline RUN] [--json] [--junit FILE] "
                       "[--allow-missing] [--workspace FILE]"),
        QStringLiteral("Evaluate serving and metric objectives (a YAML or JSON file). Exit 0 when all hold, "
                       "1 when one is broken or has no data, 2 on bad input."),
        {
            valued(
                QStringLiteral("objectives"), QStringLiteral("FILE"), QStringLiteral("the objectives file")),
            valued(QStringLiteral("run"), QStringLiteral("RUN"),
                QStringLiteral("the run to check, id or name (default: the file's, else the newest)")),
            valued(QStringLiteral("baseline"), QStringLiteral("RUN"),
                QStringLiteral("the baseline run of relative objectives (default: the file's)")),
            jsonOption(QStringLiteral("the results")),
            valued(QStringLiteral("junit"), QStringLiteral("FILE"),
                QStringLiteral("also write the results as JUnit XML for CI")),
            flag(QStringLiteral("allow-missing"),
                QStringLiteral("an objective without data is skipped, not broken")),
        } });
    // plumb query: SQL over the public views (docs/sql.md), read-only.
    c.append({ QStringLiteral("query"),
        QStringLiteral("plumb query [--workspace FILE] [--csv|--json|--table] SQL"),
        QStringLiteral("Run one SQL statement on the workspace, read-only, and print its rows. The views "
                       "traces, slices, gpu_ops, kernels, steps, counters, flows, runs, metrics, params, "
                       "lineage_nodes, lineage_edges and diagnostics are the stable contract (docs/sql.md). "
                       "A statement that would write, ATTACH, change a PRAGMA or load an extension is "
                       "refused (exit 2), as is one that is not valid SQL."),
        {
            flag(QStringLiteral("table"),
                QStringLiteral("print the rows as a table aligned for a terminal (default)")),
            flag(QStringLiteral("csv"),
                QStringLiteral("print the rows as CSV (RFC 4180): a header row, then one line a row")),
            flag(QStringLiteral("json"),
                QStringLiteral("print the result as one JSON object, plumb.query/1 (docs/json.md describes "
                               "its fields)")),
        } });
    c.append({ QStringLiteral("report"),
        QStringLiteral(
            "plumb report [--runs RUN,...] [--baseline RUN] [--sections ID,...] [--title TEXT] "
            "[--author TEXT] [--template FILE] [--page-size A4|Letter] [--dpi N] [--workspace FILE] "
            "-o review.pdf|review.png"),
        QStringLiteral("A review report: title page, contents, executive summary and the sections asked for "
                       "(steps, idle, kernels, timeline, ranks, diff, metrics, importance, config, lineage, "
                       "diagnostics); .png writes one file a page. Drawn by plumb-ui on the offscreen "
                       "platform: no display is needed, plumb-ui is."),
        {
            valued(QStringList { QStringLiteral("o"), QStringLiteral("output") }, QStringLiteral("FILE"),
                QStringLiteral("the report: a .pdf, or a .png (review-01.png, review-02.png ...)")),
            valued(QStringLiteral("runs"), QStringLiteral("RUN,..."),
                QStringLiteral("the runs (ids or names) to review (default: every run)")),
            valued(QStringLiteral("baseline"), QStringLiteral("RUN"),
                QStringLiteral("the run the others are compared with (default: the first)")),
            valued(QStringLiteral("sections"), QStringLiteral("ID,..."),
                QStringLiteral("the sections, in report order (default: every one)")),
            valued(QStringLiteral("title"), QStringLiteral("TEXT"), QStringLiteral("the title page's title")),
            valued(
                QStringLiteral("author"), QStringLiteral("TEXT"), QStringLiteral("the title page's author")),
            valued(QStringLiteral("template"), QStringLiteral("FILE"),
                QStringLiteral("a YAML file of these options (the command line wins)")),
            valued(QStringLiteral("page-size"), QStringLiteral("A4|Letter"), QStringLiteral("default A4")),
            valued(QStringLiteral("dpi"), QStringLiteral("N"),
                QStringLiteral("PNG pages, 36 to 600 (default 150)")),
        } });
    // plumb export (issue 33): a trace, or every rank of a run, as Chrome/Kineto trace JSON.
    c.append({ QStringLiteral("export"),
        QStringLiteral(
            "plumb export TRACE-ID|--run RUN [--format chrome] [--from T] [--to T] [--ranks R,...] "
            "[--single-file] [--workspace FILE] -o PATH"),
        QStringLiteral(
            "Write an imported trace as Chrome/Kineto trace JSON (.json, or .json.gz) that Perfetto "
            "UI, chrome://tracing and Holistic Trace Analysis open. --run writes every rank of a run "
            "into the folder PATH, one rank-N.json.gz a rank (what HTA reads), or with "
            "--single-file one file with each rank's processes side by side. Times of --from and "
            "--to count from the trace's first event."),
        {
            valued(QStringList { QStringLiteral("o"), QStringLiteral("output") }, QStringLiteral("PATH"),
                QStringLiteral("the file (.json or .json.gz), or for --run the folder")),
            valued(QStringLiteral("format"), QStringLiteral("chrome"),
                QStringLiteral("the output format (chrome: Chrome/Kineto trace JSON, the default)")),
            valued(QStringLiteral("run"), QStringLiteral("RUN"),
                QStringLiteral("export every trace of this run (id or name), a file per rank")),
            valued(QStringLiteral("from"), QStringLiteral("T"),
                QStringLiteral("only events from T after the trace's start: ns, or with ms (e.g. 250ms)")),
            valued(QStringLiteral("to"), QStringLiteral("T"),
                QStringLiteral("only events before T after the trace's start: ns, or with ms")),
            valued(QStringLiteral("ranks"), QStringLiteral("R,..."),
                QStringLiteral("with --run: only these ranks (e.g. 0,2,4-7)")),
            flag(QStringLiteral("single-file"),
                QStringLiteral("with --run: one file (PATH.json or .json.gz), a process per rank")),
        } });
    // plumb cluster (issue 36): a large multi-rank job imported by a Slurm job array, then merged.
    c.append({ QStringLiteral("cluster"),
        QStringLiteral("plumb cluster slurm JOBDIR -o JOB.plumb [--tasks N] [--partition P] [--account A] "
                       "[--time T] [--sbatch-arg ARG]... [--dry-run] [--wait]"),
        QStringLiteral(
            "Import a job's trace files on a Slurm cluster into one job workspace: an array job of "
            "`plumb import --shard` tasks, then a `plumb merge` job after them. The scripts, the shards "
            "and the logs go into the folder JOB.plumb.d beside JOB.plumb; --dry-run writes the scripts "
            "without submitting them. Run it on a login node: the compute nodes must see the same file "
            "system (this plumb, JOBDIR and JOB.plumb). Exit 0 when submitted (with --wait: when every rank "
            "merged), 1 when sbatch fails or is missing (or for --wait squeue) or, with --wait, when ranks "
            "are missing or the merge failed; 2 on a usage error."),
        {
            valued(QStringList { QStringLiteral("o"), QStringLiteral("output") }, QStringLiteral("FILE"),
                QStringLiteral("the job workspace the merge writes (JOB.plumb)")),
            valued(QStringLiteral("tasks"), QStringLiteral("N"),
                QStringLiteral(
                    "import tasks (shards), 1 to the number of trace files in JOBDIR (default: one "
                    "per 8 files)")),
            valued(QStringLiteral("partition"), QStringLiteral("P"), QStringLiteral("sbatch --partition")),
            valued(QStringLiteral("account"), QStringLiteral("A"), QStringLiteral("sbatch --account")),
            valued(QStringLiteral("time"), QStringLiteral("T"),
                QStringLiteral("sbatch --time: each job's time limit (e.g. 1:00:00)")),
            valued(QStringLiteral("sbatch-arg"), QStringLiteral("ARG"),
                QStringLiteral("one more #SBATCH line in both scripts, as written (repeatable; e.g. "
                               "--sbatch-arg=--mem=16G)")),
            flag(QStringLiteral("dry-run"),
                QStringLiteral("write the scripts and print the sbatch commands, submit nothing")),
            flag(QStringLiteral("wait"),
                QStringLiteral("then wait for the merge and print its log (Ctrl+C stops waiting, not the "
                               "jobs)")),
        } });
    return c;
}

QCommandLineOption workspaceOption()
{
    return valued(QStringList { QStringLiteral("w"), QStringLiteral("workspace") }, QStringLiteral("FILE"),
        QStringLiteral("the workspace (default: $PLUMB_WORKSPACE, else ~/.local/share/Plumb/default.plumb)"));
}

QCommandLineOption helpOption()
{
    return QCommandLineOption(
        QStringList { QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("this help"));
}

QString optionLabel(const QCommandLineOption &o)
{
    QStringList names;
    for (const QString &n : o.names())
        names << (n.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + n;
    QString label = names.join(QStringLiteral(", "));
    if (!o.valueName().isEmpty())
        label += QLatin1Char(' ') + o.valueName();
    return label;
}

} // namespace

const QList<Command> &commands()
{
    static const QList<Command> all = makeCommands();
    return all;
}

const Command *findCommand(const QString &name)
{
    for (const Command &c : commands())
        if (c.name == name)
            return &c;
    return nullptr;
}

QString commandHelp(const Command &command)
{
    constexpr qsizetype kWidth = 100;
    QString text;
    const QStringList synopses = command.synopsis.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < synopses.size(); ++i)
        text += (i == 0 ? QStringLiteral("Usage: ") : QStringLiteral("       ")) + synopses[i]
            + QLatin1Char('\n');
    text += QLatin1Char('\n') + text::wrapped(command.description, kWidth).join(QLatin1Char('\n'))
        + QStringLiteral("\n\nOptions:\n");
    QList<QCommandLineOption> options = command.options;
    options << workspaceOption() << helpOption();
    qsizetype labelWidth = 0;
    for (const QCommandLineOption &o : options)
        labelWidth = std::max(labelWidth, optionLabel(o).size());
    labelWidth = std::min<qsizetype>(labelWidth, 30);
    for (const QCommandLineOption &o : options) {
        const QString label = optionLabel(o);
        const QStringList desc = text::wrapped(o.description(), kWidth - labelWidth - 6);
        const QString indent(labelWidth + 6, QLatin1Char(' '));
        if (label.size() > labelWidth)
            text += QStringLiteral("  ") + label + QLatin1Char('\n') + indent;
        else
            text += QStringLiteral("  ") + label.leftJustified(labelWidth + 4);
        text += desc.join(QLatin1Char('\n') + indent) + QLatin1Char('\n');
    }
    return text;
}

CommandLine::CommandLine(const Command &command)
    : m_command(command)
{
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    m_parser.addOptions(command.options);
    m_parser.addOption(workspaceOption());
    m_parser.addOption(helpOption());
}

int CommandLine::parse(const QStringList &arguments)
{
    // QCommandLineParser skips the first argument (the program).
    if (!m_parser.parse(QStringList { QStringLiteral("plumb ") + m_command.name } + arguments))
        return usageError(m_parser.errorText());
    if (m_parser.isSet(QStringLiteral("help"))) {
        out(commandHelp(m_command));
        return 0;
    }
    return -1;
}

QString CommandLine::workspace() const
{
    QString path = m_parser.value(QStringLiteral("workspace"));
    if (path.isEmpty())
        path = qEnvironmentVariable("PLUMB_WORKSPACE");
    if (path.isEmpty())
        path = Workspace::defaultPath();
    return path;
}

int CommandLine::usageError(const QString &message) const
{
    std::fputs(QStringLiteral("plumb %1: %2\n\n%3")
                   .arg(m_command.name, message, commandHelp(m_command))
                   .toLocal8Bit()
                   .constData(),
        stderr);
    return 2;
}

namespace {

// A number option: absent leaves `value`, present must lie in [low, high].
bool numberOption(const CommandLine &line, const char *option, double low, double high, double &value)
{
    if (!line.isSet(option))
        return true;
    bool ok = false;
    const double v = line.value(option).toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < low || v > high)
        return false;
    value = v;
    return true;
}

QStringList listOf(const QStringList &values)
{
    QStringList out;
    for (const QString &value : values)
        for (const QString &v : value.split(u',', Qt::SkipEmptyParts))
            if (!v.trimmed().isEmpty())
                out << v.trimmed();
    return out;
}

} // namespace

int parseArgs(const QString &command, const QStringList &arguments, Args &a)
{
    const Command *cmd = findCommand(command);
    if (!cmd || command == QLatin1String("report") || command == QLatin1String("export"))
        return 2;
    CommandLine line(*cmd);
    if (const int status = line.parse(arguments); status >= 0)
        return status;
    a.command = command;
    a.paths = line.positional();
    a.workspace = line.workspace();
    a.json = line.isSet("json");
    a.diagnostics = command == QLatin1String("ls") && line.isSet("diagnostics");
    if (command == QLatin1String("ls") && !a.paths.isEmpty())
        return line.usageError(
            QStringLiteral("ls takes no arguments but options, not %1").arg(a.paths.front()));
    if (command == QLatin1String("doctor") || command == QLatin1String("diff")) {
        if (line.isSet("mode")) {
            const QString mode = line.value("mode");
            if (mode == QLatin1String("every"))
                a.mode = GpuOpMode::EveryOp;
            else if (mode == QLatin1String("linked"))
                a.mode = GpuOpMode::LinkedOnly;
            else if (mode == QLatin1String("hta"))
                a.mode = GpuOpMode::Hta;
            else
                return line.usageError(QStringLiteral("--mode is every, linked or hta, not %1").arg(mode));
        }
        if (command == QLatin1String("doctor")) {
            a.job = line.isSet("job");
            if (a.job
                && (line.isSet("critical-path") || line.isSet("from-events") || line.isSet("mode")
                    || line.isSet("input-annotations") || !a.paths.isEmpty()))
                return line.usageError(
                    QStringLiteral("--job reads the job's summaries: no trace ids, --mode, "
                                   "--input-annotations, --critical-path or --from-events"));
            a.criticalPath = line.isSet("critical-path");
            a.fromEvents = line.isSet("from-events");
            a.step = line.value("step");
            if (line.isSet("step") && !a.criticalPath)
                return line.usageError(QStringLiteral("--step goes with --critical-path"));
            if (line.isSet("step") && a.step.isEmpty())
                return line.usageError(
                    QStringLiteral("--step needs a step's name, e.g. --step ProfilerStep#7"));
        }
        for (const QString &pattern : line.values("input-annotations")) {
            QRegularExpression re(pattern);
            if (pattern.isEmpty())
                return line.usageError(
                    QStringLiteral("--input-annotations needs a regular expression, not an empty one"));
            if (!re.isValid())
                return line.usageError(
                    QStringLiteral("--input-annotations: %1 is not a regular expression (%2 at character %3)")
                        .arg(pattern, re.errorString())
                        .arg(re.patternErrorOffset()));
            re.optimize();
            a.stepTime.inputPatterns << re;
        }
    }
    if (command == QLatin1String("diff")) {
        a.config = line.isSet("config");
        a.fromEvents = line.isSet("from-events");
        if (a.config && a.fromEvents)
            return line.usageError(
                QStringLiteral("--from-events is for traces; diff --config compares experiment runs"));
        a.allRows = line.isSet("all");
        if (a.allRows && !a.config)
            return line.usageError(QStringLiteral("--all goes with --config"));
        if (a.config && line.isSet("mode"))
            return line.usageError(
                QStringLiteral("--mode is for traces; diff --config compares experiment runs"));
        if (a.config && a.paths.size() < 2)
            return line.usageError(QStringLiteral(
                "diff --config needs two or more experiment runs, by id or name (plumb ls lists them)"));
        if (!a.config && a.paths.size() != 2)
            return line.usageError(QStringLiteral(
                "diff needs two trace ids: the baseline and the trace to compare (plumb ls lists them)"));
        if (a.config && line.isSet("input-annotations"))
            return line.usageError(
                QStringLiteral("--input-annotations is for traces; diff --config compares experiment runs"));
    }
    if (command == QLatin1String("calltree")) {
        if (a.paths.size() != 1)
            return line.usageError(QStringLiteral("calltree needs one trace id (plumb ls lists them)"));
        a.step = line.value("step");
        if (line.isSet("step") && a.step.isEmpty())
            return line.usageError(QStringLiteral("--step needs a step's name, e.g. --step ProfilerStep#7"));
        a.thread = line.value("thread");
        if (line.isSet("thread") && a.thread.isEmpty())
            return line.usageError(QStringLiteral("--thread needs a thread id, e.g. --thread 25286"));
        a.samples = line.isSet("samples");
        a.bottomUp = line.isSet("bottom-up");
    }
    if (command == QLatin1String("lineage")) {
        if (a.paths.size() != 1)
            return line.usageError(QStringLiteral(
                "lineage needs one node: its id, key or name (plumb ls says how many there are)"));
        if (line.isSet("up") && line.isSet("down"))
            return line.usageError(QStringLiteral("--up and --down exclude each other (neither: both ways)"));
        if (line.isSet("up"))
            a.lineageDirection = LineageDirection::Up;
        else if (line.isSet("down"))
            a.lineageDirection = LineageDirection::Down;
        double depth = a.lineageDepth;
        if (!numberOption(line, "depth", 1, 1000, depth) || depth != std::floor(depth))
            return line.usageError(
                QStringLiteral("--depth needs a number of edges from 1 to 1000, e.g. --depth 3"));
        a.lineageDepth = int(depth);
    }
    if (command == QLatin1String("query")) {
        const int formats = int(line.isSet("csv")) + int(line.isSet("json")) + int(line.isSet("table"));
        if (formats > 1)
            return line.usageError(QStringLiteral("--csv, --json and --table exclude each other"));
        a.queryFormat = line.isSet("csv") ? QueryFormat::Csv
            : line.isSet("json")          ? QueryFormat::Json
                                          : QueryFormat::Table;
        // The words of an unquoted statement are one statement.
        a.sql = a.paths.join(QLatin1Char(' ')).trimmed();
        if (a.sql.isEmpty())
            return line.usageError(QStringLiteral("query needs an SQL statement, e.g. plumb query \"SELECT "
                                                  "name, count(*) FROM kernels GROUP BY name\""));
    }
    if (command == QLatin1String("merge")) {
        if (a.paths.size() != 1)
            return line.usageError(QStringLiteral("merge needs the folder of the shards, e.g. plumb merge "
                                                  "job.plumb.d/shards -o job.plumb"));
        a.output = line.value("output");
        if (a.output.isEmpty())
            return line.usageError(QStringLiteral("merge needs -o JOB.plumb, the job workspace to write"));
    }
    if (command == QLatin1String("import") && (line.isSet("shard") || line.isSet("shards"))) {
        if (!line.isSet("shard"))
            return line.usageError(QStringLiteral("--shards goes with --shard auto"));
        if (line.isSet("watch"))
            return line.usageError(QStringLiteral("--shard and --watch exclude each other"));
        if (!line.isSet("workspace"))
            return line.usageError(
                QStringLiteral("--shard needs --workspace SHARD.plumb: the shard's file, in the folder plumb "
                               "merge reads"));
        QString error;
        std::optional<ShardSpec> spec;
        if (line.value("shard") == QLatin1String("auto")) {
            double shards = 0;
            if (!numberOption(line, "shards", 1, 1e6, shards) || shards != std::floor(shards))
                return line.usageError(
                    QStringLiteral("--shards needs the number of tasks, e.g. --shards 16"));
            spec = shardFromEnvironment(int(shards), &error);
        } else if (line.isSet("shards")) {
            return line.usageError(QStringLiteral("--shards goes with --shard auto (I/N says N itself)"));
        } else {
            spec = parseShard(line.value("shard"), &error);
        }
        if (!spec)
            return line.usageError(error);
        a.shard = *spec;
    }
    if (command == QLatin1String("import")) {
        a.watch = line.isSet("watch");
        double jobs = 0, interval = a.intervalMs / 1000.0;
        if (!numberOption(line, "jobs", 1, 256, jobs) || jobs != std::floor(jobs))
            return line.usageError(
                QStringLiteral("--jobs needs the number of traces read at once, 1 to 256, e.g. --jobs 4"));
        a.jobs = int(jobs);
        double wait = -1;
        if (!numberOption(line, "wait", 0, 86400, wait))
            return line.usageError(QStringLiteral(
                "--wait needs the SECONDS to wait for another writer, 0 to 86400, e.g. --wait 600"));
        a.writeWaitSeconds = wait;
        if (!numberOption(line, "interval", 0.05, 3600, interval))
            return line.usageError(
                QStringLiteral("--interval needs SECONDS between 0.05 and 3600, e.g. --interval 5"));
        a.intervalMs = int(std::lround(interval * 1000));
        TabularOverrides &t = a.importOptions.tabular;
        t.stepColumn = line.value("step-column");
        t.timeColumn = line.value("time-column");
        t.runColumn = line.value("run-column");
        if (line.isSet("long")) {
            const QStringList kv = line.value("long").split(QLatin1Char(','));
            if (kv.size() != 2 || kv[0].isEmpty() || kv[1].isEmpty())
                return line.usageError(
                    QStringLiteral("--long needs KEY-COLUMN,VALUE-COLUMN, e.g. --long key,value"));
            t.keyColumn = kv[0];
            t.valueColumn = kv[1];
        }
        for (const QString &value : line.values("column")) {
            const qsizetype eq = value.lastIndexOf(QLatin1Char('='));
            const auto role = eq > 0 ? roleFromName(value.mid(eq + 1)) : std::nullopt;
            if (!role)
                return line.usageError(QStringLiteral(
                    "--column needs NAME=ROLE, ROLE one of run, step, time, key, value, metric, "
                    "param, ignore, or for request logs latency, ttft, itl, tokens_in, "
                    "tokens_out, status, model, endpoint; not %1")
                                           .arg(value));
            t.roles.emplace_back(value.left(eq), *role);
        }
    }
    if (command == QLatin1String("goodput")) {
        if (a.paths.size() > 1)
            return line.usageError(QStringLiteral("goodput takes one RUN (an id or a name)"));
        double flops = 0, peak = 0, interval = 0;
        constexpr double kMax = 1e300;
        for (const auto &[option, value] :
            { std::pair { "flops-per-step", &flops }, std::pair { "peak-flops", &peak } })
            if (!numberOption(line, option, 1e-300, kMax, *value))
                return line.usageError(QStringLiteral("--%1 needs a positive number, e.g. --%1 3.3e15")
                                           .arg(QLatin1String(option)));
        if (!numberOption(line, "interval", 1e-9, 1e9, interval))
            return line.usageError(QStringLiteral("--interval needs positive SECONDS, e.g. --interval 600"));
        a.goodput.flopsPerStep = flops;
        a.goodput.peakFlopsPerSecond = peak;
        a.goodput.intervalNs = int64_t(std::llround(interval * 1e9));
    }
    if (command == QLatin1String("memory") && a.paths.size() > 1)
        return line.usageError(QStringLiteral("memory takes one TRACE-ID"));
    if (command == QLatin1String("check")) {
        if (!a.paths.isEmpty())
            return line.usageError(
                QStringLiteral("check takes no arguments but options, not %1").arg(a.paths.front()));
        a.objectivesPath = line.value("objectives");
        if (a.objectivesPath.isEmpty())
            return line.usageError(QStringLiteral("check needs --objectives FILE"));
        a.junitPath = line.value("junit");
        a.allowMissing = line.isSet("allow-missing");
        a.check.run = line.value("run");
        a.check.baseline = line.value("baseline");
    }
    return -1;
}

int parseReportArgs(const QStringList &arguments, ReportArgs &a)
{
    CommandLine line(*findCommand(QStringLiteral("report")));
    if (const int status = line.parse(arguments); status >= 0)
        return status;
    if (!line.positional().isEmpty())
        return line.usageError(
            QStringLiteral("report takes no arguments but options, not %1").arg(line.positional().front()));
    a.workspace = line.workspace();
    a.output = line.value("output");
    a.templatePath = line.value("template");
    if (a.output.isEmpty())
        return line.usageError(
            QStringLiteral("report needs -o FILE (review.pdf, or review.png for PNG pages)"));
    const QString suffix = QFileInfo(a.output).suffix().toLower();
    if (suffix != QLatin1String("pdf") && suffix != QLatin1String("png"))
        return line.usageError(QStringLiteral("-o takes a .pdf or a .png file, not %1").arg(a.output));
    if (!a.templatePath.isEmpty())
        if (const QString e = applyReportTemplate(a.templatePath, a.options); !e.isEmpty()) {
            err(e);
            return 2;
        }
    // The same checks as a template's, so the messages are the same.
    QByteArray overrides;
    auto add = [&](const char *key, const char *option) {
        if (line.isSet(option))
            overrides += QByteArray(key) + ": \""
                + line.value(option).toUtf8().replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
                + "\"\n";
    };
    add("title", "title");
    add("author", "author");
    add("baseline", "baseline");
    add("page_size", "page-size");
    add("dpi", "dpi");
    if (const QString e = applyReportTemplateText(overrides, QStringLiteral("command line"), a.options);
        !e.isEmpty()) {
        err(e);
        return 2;
    }
    if (const QStringList runs = listOf(line.values("runs")); !runs.isEmpty())
        a.options.runs = runs;
    if (const QStringList sections = listOf(line.values("sections")); !sections.isEmpty())
        a.options.sections = sections;
    return -1;
}

int parseExportArgs(const QStringList &arguments, ExportArgs &a)
{
    CommandLine line(*findCommand(QStringLiteral("export")));
    if (const int status = line.parse(arguments); status >= 0)
        return status;
    a.workspace = line.workspace();
    a.output = line.value("output");
    a.run = line.value("run");
    a.singleFile = line.isSet("single-file");
    const QStringList positional = line.positional();
    if (positional.size() > 1)
        return line.usageError(QStringLiteral("export takes one TRACE-ID (or --run RUN), not %1")
                                   .arg(positional.join(QLatin1Char(' '))));
    if (!positional.isEmpty())
        a.traceId = positional.front();
    if (a.traceId.isEmpty() == a.run.isEmpty())
        return line.usageError(a.run.isEmpty()
                ? QStringLiteral("export needs a TRACE-ID (plumb ls lists them) or --run RUN")
                : QStringLiteral("export takes a TRACE-ID or --run RUN, not both"));
    if (line.isSet("format") && line.value("format") != QLatin1String("chrome"))
        return line.usageError(QStringLiteral("--format is chrome (Chrome/Kineto trace JSON), not %1")
                                   .arg(line.value("format")));
    if (a.output.isEmpty())
        return line.usageError(a.run.isEmpty() || a.singleFile
                ? QStringLiteral("export needs -o FILE (trace.json or trace.json.gz)")
                : QStringLiteral("export --run needs -o FOLDER (one rank-N.json.gz a rank)"));
    const bool toFile = a.run.isEmpty() || a.singleFile;
    const QString lower = a.output.toLower();
    if (toFile && !lower.endsWith(QLatin1String(".json")) && !lower.endsWith(QLatin1String(".json.gz")))
        return line.usageError(QStringLiteral("-o takes a .json or a .json.gz file, not %1").arg(a.output));
    a.gzip = toFile ? lower.endsWith(QLatin1String(".gz")) : true;
    if (a.run.isEmpty() && (line.isSet("ranks") || a.singleFile))
        return line.usageError(QStringLiteral("--ranks and --single-file go with --run RUN"));
    for (const auto &[option, value] : { std::pair { "from", &a.fromNs }, std::pair { "to", &a.toNs } })
        if (line.isSet(option) && !plumb::parseExportTime(line.value(option), *value))
            return line.usageError(
                QStringLiteral("--%1 needs a time in ns, or in ms with ms (e.g. 250ms), not %2")
                    .arg(QLatin1String(option), line.value(option)));
    if (a.fromNs >= a.toNs)
        return line.usageError(QStringLiteral("--from must come before --to"));
    for (const QString &part : listOf(line.values("ranks"))) {
        const QStringList ends = part.split(QLatin1Char('-'));
        bool ok1 = false, ok2 = false;
        const qint64 lo = ends.front().toLongLong(&ok1);
        const qint64 hi = ends.size() == 2 ? ends.back().toLongLong(&ok2) : lo;
        if (ends.size() > 2 || !ok1 || (ends.size() == 2 && !ok2) || lo < 0 || hi < lo || hi - lo > 100000)
            return line.usageError(
                QStringLiteral("--ranks needs ranks and ranges, e.g. 0,2,4-7; not %1").arg(part));
        for (qint64 r = lo; r <= hi; ++r)
            a.ranks.push_back(r);
    }
    return -1;
}

int withWorkspace(
    const QString &path, const QString &hint, const std::function<int(Workspace &)> &body, int failure)
{
    if (!QFileInfo::exists(path)) {
        err(QStringLiteral("no workspace at %1; %2").arg(path, hint));
        return failure;
    }
    try {
        Workspace ws(path, Workspace::Role::Reader);
        return body(ws);
    } catch (const SqlError &e) {
        err(workspaceError(path, e));
        return failure;
    }
}

QString workspaceError(const QString &path, const std::exception &error)
{
    const auto *sql = dynamic_cast<const SqlError *>(&error);
    const QString why = QString::fromUtf8(error.what());
    if (sql && sql->code() == SQLITE_NOTADB)
        return QStringLiteral(
            "%1 is not a Plumb workspace (%2); it was left as it was. Give a workspace "
            "with --workspace, or a new file name to create one (plumb import PATH --workspace "
            "NEW.plumb)")
            .arg(path,
                why.contains(QLatin1String("not a Plumb workspace"))
                    ? QStringLiteral("another program's SQLite file")
                    : QStringLiteral("not an SQLite file"));
    return QStringLiteral("cannot use the workspace %1: %2").arg(path, why);
}

QString jsonText(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented));
}

void out(const QString &s)
{
    std::fputs(s.toLocal8Bit().constData(), stdout);
}

void err(const QString &s)
{
    std::fputs(QString(QStringLiteral("plumb: ") + s + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
}

} // namespace cli
