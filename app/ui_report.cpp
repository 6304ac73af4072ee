// SPDX-License-Identifier: GPL-3.0-or-later
// plumb-ui --report: a review report (PDF, or PNG pages) from the workspace, without a display.
#include "ui_report.h"

#include "cli_args.h"
#include "report/reportbuilder.h"
#include "report/reportdocument.h"
#include "store/workspace.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>

#include <cstdio>

using namespace plumb;

int runReport(int argc, char **argv, const QStringList &arguments)
{
    // Charts are widgets: a QApplication is needed, on the offscreen platform when there is no display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Plumb"));
    QCoreApplication::setApplicationName(QStringLiteral("Plumb"));
    cli::ReportArgs a;
    if (const int status = cli::parseReportArgs(arguments, a); status >= 0)
        return status;
    if (!QFileInfo::exists(a.workspace)) {
        cli::err(QStringLiteral(
            "no workspace at %1; import traces or logs first (plumb import PATH) or pass --workspace FILE")
                     .arg(a.workspace));
        return 1;
    }
    QElapsedTimer timer;
    timer.start();
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        ReportBuild build = buildReport(ws, a.workspace, a.options);
        if (!build.error.isEmpty()) {
            cli::err(build.error);
            return 1;
        }
        const qint64 builtMs = timer.elapsed();
        QString error;
        int pages = 0;
        const QStringList files
            = writeReport(std::move(build.model), a.options, a.output, &error, {}, &pages);
        if (files.isEmpty()) {
            cli::err(error);
            return 1;
        }
        const QString written
            = files.size() == 1 ? files.front() : QStringLiteral("%1 … %2").arg(files.front(), files.back());
        std::printf("%s: %d pages (analyses %.2f s, drawing %.2f s)\n", qPrintable(written), pages,
            double(builtMs) / 1e3, double(timer.elapsed() - builtMs) / 1e3);
    } catch (const std::exception &e) {
        cli::err(
            QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, QString::fromUtf8(e.what())));
        return 1;
    }
    return 0;
}
