// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "cli_args.h"
#include "cli_check.h"
#include "cli_configdiff.h"
#include "cli_diff.h"
#include "cli_doctor.h"
#include "cli_goodput.h"
#include "cli_import.h"
#include "cli_lineage.h"
#include "cli_ls.h"
#include "cli_report.h"

#include "builtinimporters.h"
#include "ingest/importerregistry.h"
#include "store/workspace.h"
#include "tabular/tabularlayout.h"

#include <QCoreApplication>

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace plumb;
using cli::Args;
using cli::err;

namespace {

constexpr const char *kUsage
    = "Usage: plumb [OPTIONS] [PATH...]            open the main window (importing PATHs)\n"
      "       plumb import PATH... [--workspace FILE] [--json] [--jobs N] [--watch [--interval SECONDS]]\n"
      "                                            import files and folders into the workspace;\n"
      "                                            --watch: then keep importing what is added or\n"
      "                                            appended to them (every 2 s) until Ctrl+C;\n"
      "                                            --jobs: traces read at once (default: half the\n"
      "                                            cores; the ranks of a job import in parallel)\n"
      "         CSV/JSONL metric logs: --step-column NAME, --time-column NAME, --run-column NAME,\n"
      "         --long KEY-COLUMN,VALUE-COLUMN, --column NAME=ROLE (run, step, time, key, value,\n"
      "         metric, param, ignore; request logs: latency, ttft, itl, tokens_in, tokens_out,\n"
      "         status, model, endpoint) set column roles instead of the detected ones\n"
      "       plumb ls [--workspace FILE] [--json] [--diagnostics]\n"
      "                                            list the workspace's runs, traces and sources\n"
      "       plumb doctor [TRACE-ID...] [--mode every|linked|hta] [--workspace FILE] [--json]\n"
      "                                            where each trace's GPU time goes (every trace when\n"
      "                                            none is given; linked: only ops the traced program\n"
      "                                            launched; hta: as Holistic Trace Analysis counts)\n"
      "       plumb diff BASELINE-ID TRACE-ID [--mode every|linked|hta] [--workspace FILE] [--json]\n"
      "                                            what changed between two traces: per step when both\n"
      "                                            have steps, split by category and by GPU op\n"
      "       plumb diff --config RUN RUN [RUN...] [--all] [--workspace FILE] [--json]\n"
      "                                            experiment runs (ids or names) side by side: the\n"
      "                                            params, tags and environment that differ (--all:\n"
      "                                            every row), each metric's last value and change\n"
      "                                            from the first run\n"
      "       plumb lineage NODE [--up|--down] [--depth N] [--workspace FILE] [--json]\n"
      "                                            what a lineage node (id, key or name) was made\n"
      "                                            from (--up), what was made from it (--down), or\n"
      "                                            both (default), N edges deep (default 5)\n"
      "       plumb goodput [RUN] [--workspace FILE] [--json] [--flops-per-step N --peak-flops N]\n"
      "                     [--interval SECONDS]   how much of a job's time was productive training\n"
      "                                            (goodput) and where the rest went (badput), from\n"
      "                                            its lifecycle log or its logged steps' wall times\n"
      "       plumb check --objectives FILE [--run RUN] [--baseline RUN] [--json] [--junit FILE]\n"
      "             [--allow-missing] [--workspace FILE]\n"
      "                                            evaluate serving and metric objectives (a YAML or\n"
      "                                            JSON file); exit 0 when all hold, 1 when one is\n"
      "                                            broken or has no data, 2 on bad input\n"
      "       plumb report [--runs RUN,...] [--baseline RUN] [--sections ID,...] [--title TEXT]\n"
      "                    [--author TEXT] [--template FILE] [--page-size A4|Letter] [--dpi N]\n"
      "                    [--workspace FILE] -o review.pdf|review.png\n"
      "                                            a review report: title page, contents, executive\n"
      "                                            summary, the sections asked for (steps, idle,\n"
      "                                            kernels, timeline, ranks, diff, metrics, importance,\n"
      "                                            config, lineage, diagnostics); .png: one file a page\n"
      "       plumb --version                      the versions of Plumb and its libraries\n"
      "\n"
      "The workspace is FILE, else $PLUMB_WORKSPACE, else the default one in your data folder\n"
      "(~/.local/share/Plumb/default.plumb).\n"
      "\n"
      "GUI options:\n"
      "  --workspace FILE    open (or create) the workspace FILE instead of the default one\n"
      "  --sample            rebuild and open the sample workspace (<AppData>/Plumb/sample.plumb)\n"
      "  --timeline          open the timeline of the selected trace (the last imported one)\n"
      "  --doctor            open the Doctor tab for the selected trace (the last imported one)\n"
      "  --diff              open the Diff tab for the first two traces imported (else the first\n"
      "                      two in the workspace), the first as the baseline\n"
      "  --experiments       open the Experiments tab\n"
      "  --lineage           open the Lineage tab (the newest model, or search a node there)\n"
      "  --goodput           open the Goodput tab (the newest job with a lifecycle log)\n"
      "  --slo               open the SLO tab (the last objectives file opened there, else the sample's)\n"
      "  --tour, --no-tour   show (or do not show) the welcome tour; it comes with --sample and the\n"
      "                      first launch unless \"Don't show again\" was ticked\n"
      "  --theme system|light|dark  this time's palette (View > Theme chooses and remembers one)\n"
      "  --screenshot PNG    save the window to PNG once the workspace (and any import) is shown,\n"
      "                      then quit\n"
      "\n";

// After the formats (formatsHelp()).
constexpr const char *kUsageExitStatus
    = "Exit status: 0 on success; 1 when a file failed or was cancelled, when none of the files given\n"
      "could be recognised, or when the workspace cannot be used; 2 on a usage error.\n";

// "Formats, recognised by content: ..." with every importer of this build, wrapped between names.
QString formatsHelp()
{
    ImporterRegistry registry;
    registerBuiltinImporters(registry);
    QStringList words { QStringLiteral("Formats, recognised by content:") };
    for (const auto &importer : registry.importers())
        words << importer->displayName() + QLatin1Char(',');
    words.back().chop(1);
    words.back() += QStringLiteral("; folders are walked.");
    constexpr qsizetype kWidth = 96;
    QString out, line;
    for (const QString &w : words) {
        if (!line.isEmpty() && line.size() + 1 + w.size() > kWidth) {
            out += line + QLatin1Char('\n');
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + w;
    }
    return out + line + QStringLiteral("\n\n");
}

Args parse(int argc, char **argv)
{
    Args a;
    a.command = QString::fromLocal8Bit(argv[1]);
    for (int i = 2; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (arg == QLatin1String("--workspace") || arg == QLatin1String("-w")) {
            if (i + 1 >= argc) {
                a.error = QStringLiteral("--workspace needs a FILE");
                return a;
            }
            a.workspace = QString::fromLocal8Bit(argv[++i]);
        } else if (arg.startsWith(QLatin1String("--workspace="))) {
            a.workspace = arg.mid(12);
        } else if (arg == QLatin1String("--json")) {
            a.json = true;
        } else if (arg == QLatin1String("--diagnostics") && a.command == QLatin1String("ls")) {
            a.diagnostics = true;
        } else if (arg == QLatin1String("--config") && a.command == QLatin1String("diff")) {
            a.config = true;
        } else if (arg == QLatin1String("--all") && a.command == QLatin1String("diff")) {
            a.allRows = true;
        } else if (arg == QLatin1String("--mode")
            && (a.command == QLatin1String("doctor") || a.command == QLatin1String("diff"))) {
            const QString mode = i + 1 < argc ? QString::fromLocal8Bit(argv[++i]) : QString();
            if (mode == QLatin1String("every")) {
                a.mode = GpuOpMode::EveryOp;
            } else if (mode == QLatin1String("linked")) {
                a.mode = GpuOpMode::LinkedOnly;
            } else if (mode == QLatin1String("hta")) {
                a.mode = GpuOpMode::Hta;
            } else {
                a.error = QStringLiteral("--mode is every, linked or hta");
                return a;
            }
        } else if ((arg == QLatin1String("--up") || arg == QLatin1String("--down"))
            && a.command == QLatin1String("lineage")) {
            a.lineageDirection = arg == QLatin1String("--up") ? LineageDirection::Up : LineageDirection::Down;
        } else if (arg == QLatin1String("--depth") && a.command == QLatin1String("lineage")) {
            bool ok = false;
            a.lineageDepth = i + 1 < argc ? QString::fromLocal8Bit(argv[++i]).toInt(&ok) : 0;
            if (!ok || a.lineageDepth < 1 || a.lineageDepth > 1000) {
                a.error = QStringLiteral("--depth needs a number of edges from 1 to 1000, e.g. --depth 3");
                return a;
            }
        } else if (arg == QLatin1String("--watch") && a.command == QLatin1String("import")) {
            a.watch = true;
        } else if (arg == QLatin1String("--jobs") && a.command == QLatin1String("import")) {
            bool ok = false;
            a.jobs = i + 1 < argc ? QString::fromLocal8Bit(argv[++i]).toInt(&ok) : 0;
            if (!ok || a.jobs < 1 || a.jobs > 256) {
                a.error = QStringLiteral(
                    "--jobs needs the number of traces read at once, 1 to 256, e.g. --jobs 4");
                return a;
            }
        } else if (arg == QLatin1String("--interval") && a.command == QLatin1String("import")) {
            bool ok = false;
            const double s = i + 1 < argc ? QString::fromLocal8Bit(argv[++i]).toDouble(&ok) : 0;
            if (!ok || !(s >= 0.05 && s <= 3600)) {
                a.error = QStringLiteral("--interval needs SECONDS between 0.05 and 3600, e.g. --interval 5");
                return a;
            }
            a.intervalMs = int(std::lround(s * 1000));
        } else if (a.command == QLatin1String("import")
            && (arg == QLatin1String("--step-column") || arg == QLatin1String("--time-column")
                || arg == QLatin1String("--run-column") || arg == QLatin1String("--long")
                || arg == QLatin1String("--column"))) {
            if (i + 1 >= argc) {
                a.error = QStringLiteral("%1 needs a column name").arg(arg);
                return a;
            }
            const QString value = QString::fromLocal8Bit(argv[++i]);
            TabularOverrides &t = a.importOptions.tabular;
            if (arg == QLatin1String("--step-column")) {
                t.stepColumn = value;
            } else if (arg == QLatin1String("--time-column")) {
                t.timeColumn = value;
            } else if (arg == QLatin1String("--run-column")) {
                t.runColumn = value;
            } else if (arg == QLatin1String("--long")) {
                const QStringList kv = value.split(QLatin1Char(','));
                if (kv.size() != 2 || kv[0].isEmpty() || kv[1].isEmpty()) {
                    a.error = QStringLiteral("--long needs KEY-COLUMN,VALUE-COLUMN, e.g. --long key,value");
                    return a;
                }
                t.keyColumn = kv[0];
                t.valueColumn = kv[1];
            } else {
                const qsizetype eq = value.lastIndexOf(QLatin1Char('='));
                const auto role = eq > 0 ? roleFromName(value.mid(eq + 1)) : std::nullopt;
                if (!role) {
                    a.error
                        = QStringLiteral("--column needs NAME=ROLE, ROLE one of run, step, time, key, value, "
                                         "metric, param, ignore, or for request logs latency, ttft, itl, "
                                         "tokens_in, tokens_out, status, model, endpoint");
                    return a;
                }
                t.roles.emplace_back(value.left(eq), *role);
            }
        } else if (arg.startsWith(QLatin1String("--"))) {
            a.error = QStringLiteral("unknown option %1").arg(arg);
            return a;
        } else {
            a.paths << arg;
        }
    }
    if (a.workspace.isEmpty())
        a.workspace = qEnvironmentVariable("PLUMB_WORKSPACE");
    if (a.workspace.isEmpty())
        a.workspace = Workspace::defaultPath();
    return a;
}

} // namespace

namespace cli {

void out(const QString &s)
{
    std::fputs(s.toLocal8Bit().constData(), stdout);
}

void err(const QString &s)
{
    std::fputs(QString(QStringLiteral("plumb: ") + s + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
}

} // namespace cli

bool isCliCommand(const char *arg)
{
    if (!arg)
        return false;
    for (const char *c :
        { "import", "ls", "doctor", "diff", "lineage", "goodput", "check", "report", "--help", "-h", "help" })
        if (std::strcmp(arg, c) == 0)
            return true;
    return false;
}

int runCli(int argc, char **argv)
{
    if (std::strcmp(argv[1], "report") == 0)
        return runReport(argc, argv); // makes its own QApplication
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Plumb"));
    QCoreApplication::setApplicationName(QStringLiteral("Plumb"));
    const QString cmd = QString::fromLocal8Bit(argv[1]);
    if (cmd == QLatin1String("--help") || cmd == QLatin1String("-h") || cmd == QLatin1String("help")) {
        std::fputs(kUsage, stdout);
        std::fputs(formatsHelp().toLocal8Bit().constData(), stdout);
        std::fputs(kUsageExitStatus, stdout);
        return 0;
    }
    if (cmd == QLatin1String("goodput"))
        return runGoodputCommand(argc, argv);
    if (cmd == QLatin1String("check"))
        return runCheck(argc, argv);
    const Args a = parse(argc, argv);
    if (!a.error.isEmpty()) {
        err(a.error + QStringLiteral("\nRun `plumb --help` for usage."));
        return 2;
    }
    if (a.command == QLatin1String("import"))
        return runImport(a);
    if (a.command == QLatin1String("doctor"))
        return runDoctor(a);
    if (a.command == QLatin1String("diff"))
        return a.config ? runConfigDiff(a) : runDiff(a);
    if (a.command == QLatin1String("lineage"))
        return runLineage(a);
    return runLs(a);
}
