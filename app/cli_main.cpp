// SPDX-License-Identifier: GPL-3.0-or-later
// plumb: the command line. Links core and the importers only (Qt Core, SQLite, zlib, simdjson, protobuf,
// yaml-cpp), so it runs on cluster nodes, CI runners and containers without a display or a GUI library.
// The window is plumb-ui: `plumb`, `plumb open PATH...` and `plumb --sample ...` hand over to it.
#include "cli.h"
#include "cli_args.h"
#include "uilauncher.h"
#include "util/allocatortuning.h"
#include "versioninfo.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <cstdio>

int main(int argc, char **argv)
{
    plumb::tuneAllocator();
    QStringList arguments;
    for (int i = 1; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    const QString first = arguments.value(0);
    if (first == QLatin1String("--version")) {
        std::printf("%s\n", qPrintable(plumb::versionReport()));
        return 0;
    }
    const bool help
        = first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("help");
    if (help || cli::findCommand(first)) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setOrganizationName(QStringLiteral("Plumb"));
        QCoreApplication::setApplicationName(QStringLiteral("Plumb"));
        return runCli(first, arguments.mid(1));
    }
    // The window: no arguments, `open PATH...`, window options, or paths to import.
    if (first == QLatin1String("open"))
        return cli::launchUi(arguments.mid(1), cli::UiLaunch::Window);
    if (first.isEmpty() || first.startsWith(QLatin1Char('-')) || QFileInfo::exists(first))
        return cli::launchUi(arguments, cli::UiLaunch::Window);
    std::fprintf(stderr,
        "plumb: %s is neither a command nor a file or folder to open\nRun `plumb --help` for the commands.\n",
        qPrintable(first));
    return 2;
}
