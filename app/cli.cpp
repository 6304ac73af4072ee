// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "cli_args.h"
#include "cli_calltree.h"
#include "cli_check.h"
#include "cli_cluster.h"
#include "cli_configdiff.h"
#include "cli_diff.h"
#include "cli_doctor.h"
#include "cli_export.h"
#include "cli_goodput.h"
#include "cli_import.h"
#include "cli_lineage.h"
#include "cli_ls.h"
#include "cli_memory.h"
#include "cli_merge.h"
#include "cli_query.h"
#include "uilauncher.h"

#include "builtinimporters.h"
#include "ingest/importerregistry.h"
#include "store/workspace.h"
#include "text/textformat.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <cstdio>

using namespace plumb;
using cli::Args;
using cli::err;

namespace {

// The window's options, which `plumb` passes on to plumb-ui (ui_main.cpp parses them).
constexpr const char *kWindowUsage
    = "Usage: plumb [WINDOW OPTIONS] [PATH...]     open the window (plumb-ui), importing PATHs\n"
      "       plumb open [WINDOW OPTIONS] PATH...\n"
      "       plumb COMMAND [OPTIONS]               the commands below, without a display or a GUI library\n"
      "       plumb COMMAND --help                  that command's options\n"
      "       plumb --version                       the versions of Plumb and its libraries\n"
      "\n";

constexpr const char *kWindowOptions
    = "  --workspace FILE    open (or create) the workspace FILE instead of the default one\n"
      "  --sample            rebuild and open the sample workspace (<AppData>/Plumb/sample.plumb)\n"
      "  --timeline          open the timeline of the selected trace (the last imported one)\n"
      "  --call-tree         open the Call Tree tab for the selected trace (--bottom-up: its bottom-up "
      "tree)\n"
      "  --critical-path     with --timeline: outline the critical path of its second step (or its only "
      "one)\n"
      "  --doctor            open the Doctor tab for the selected trace (the last imported one)\n"
      "  --memory            open the Memory tab for the selected trace (the last imported one)\n"
      "  --diff              open the Diff tab for the first two traces imported (else the first\n"
      "                      two in the workspace), the first as the baseline\n"
      "  --experiments       open the Experiments tab\n"
      "  --lineage           open the Lineage tab (the newest model, or search a node there)\n"
      "  --goodput           open the Goodput tab (the newest job with a lifecycle log)\n"
      "  --job               open the Job tab (a multi-rank job: plumb merge's output, or ranks imported)\n"
      "  --slo               open the SLO tab (the last objectives file opened there, else the sample's)\n"
      "  --query             open the Query tab and run an example (read-only SQL over the views)\n"
      "  --tour, --no-tour   show (or do not show) the welcome tour; it comes with --sample and the\n"
      "                      first launch unless \"Don't show again\" was ticked\n"
      "  --theme system|light|dark  this time's palette (View > Theme chooses and remembers one)\n"
      "  --screenshot PNG    save the window to PNG once the workspace (and any import) is shown,\n"
      "                      then quit\n"
      "\n";

// After the formats (formatsHelp()).
constexpr const char *kUsageExitStatus
    = "Exit status: 0 on success; 1 when a file failed or was cancelled, when none of the files given\n"
      "could be recognised, when the workspace cannot be used, when a trace or run named is not in it,\n"
      "or when the window (plumb-ui) cannot be started; 2 on a usage error (check: 1 when an objective\n"
      "is broken, 2 on bad input; query: 2 for a refused or bad statement).\n";

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

// `plumb --help`: how to open the window, each command's synopsis and summary, the window's options,
// the formats and the exit statuses.
QString overallHelp()
{
    QString text = QString::fromLatin1(kWindowUsage) + QStringLiteral("Commands:\n");
    for (const cli::Command &c : cli::commands()) {
        constexpr qsizetype kWidth = 100;
        for (const QString &line : c.synopsis.split(QLatin1Char('\n')))
            text += QStringLiteral("  ")
                + plumb::text::wrapped(line, kWidth - 2).join(QStringLiteral("\n          "))
                + QLatin1Char('\n');
        QString summary = c.description.section(QStringLiteral(". "), 0, 0);
        if (!summary.endsWith(QLatin1Char('.')))
            summary += QLatin1Char('.');
        text += QStringLiteral("      ")
            + plumb::text::wrapped(summary, kWidth - 6).join(QStringLiteral("\n      ")) + QLatin1Char('\n');
    }
    text += QStringLiteral(
                "\nThe workspace is --workspace FILE, else $PLUMB_WORKSPACE, else the default one in "
                "your data folder\n(~/.local/share/Plumb/default.plumb).\n\nWindow options (passed "
                "on to plumb-ui):\n")
        + QString::fromLatin1(kWindowOptions) + formatsHelp() + QString::fromLatin1(kUsageExitStatus);
    return text;
}

} // namespace

int runCli(const QString &command, const QStringList &arguments)
{
    if (command == QLatin1String("--help") || command == QLatin1String("-h")
        || command == QLatin1String("help")) {
        if (!arguments.isEmpty()) { // plumb help COMMAND
            if (const cli::Command *c = cli::findCommand(arguments.front())) {
                cli::out(cli::commandHelp(*c));
                return 0;
            }
            err(QStringLiteral("no command %1; `plumb --help` lists them").arg(arguments.front()));
            return 2;
        }
        cli::out(overallHelp());
        return 0;
    }
    if (command == QLatin1String("report")) {
        // Checked here, so that usage errors and --help need no plumb-ui; drawn by plumb-ui.
        cli::ReportArgs report;
        if (const int status = cli::parseReportArgs(arguments, report); status >= 0)
            return status;
        const QFileInfo folder(QFileInfo(report.output).absolutePath());
        if (!folder.isDir() || !folder.isWritable()) {
            err(QStringLiteral("cannot write %1: %2")
                    .arg(report.output,
                        folder.isDir()
                            ? QStringLiteral("the folder %1 is not writable").arg(folder.filePath())
                            : QStringLiteral("there is no folder %1").arg(folder.filePath())));
            return 1;
        }
        if (const int status = cli::withWorkspace(report.workspace,
                QStringLiteral("import traces or logs first (plumb import PATH) or pass --workspace FILE"),
                [](Workspace &) { return 0; });
            status != 0)
            return status;
        return cli::launchUi(
            QStringList { QStringLiteral("--report") } + arguments, cli::UiLaunch::Offscreen);
    }
    if (command == QLatin1String("export")) {
        cli::ExportArgs exportArgs;
        if (const int status = cli::parseExportArgs(arguments, exportArgs); status >= 0)
            return status;
        return runExport(exportArgs);
    }
    if (command == QLatin1String("cluster")) {
        cli::ClusterArgs clusterArgs;
        if (const int status = cli::parseClusterArgs(arguments, clusterArgs); status >= 0)
            return status;
        return runCluster(clusterArgs);
    }
    Args a;
    if (const int status = cli::parseArgs(command, arguments, a); status >= 0)
        return status;
    if (command == QLatin1String("import"))
        return runImport(a);
    if (command == QLatin1String("merge"))
        return runMerge(a);
    if (command == QLatin1String("doctor"))
        return runDoctor(a);
    if (command == QLatin1String("diff"))
        return a.config ? runConfigDiff(a) : runDiff(a);
    if (command == QLatin1String("lineage"))
        return runLineage(a);
    if (command == QLatin1String("calltree"))
        return runCallTree(a);
    if (command == QLatin1String("goodput"))
        return runGoodput(a);
    if (command == QLatin1String("memory"))
        return runMemory(a);
    if (command == QLatin1String("check"))
        return runCheck(a);
    if (command == QLatin1String("query"))
        return runQuery(a);
    return runLs(a);
}
