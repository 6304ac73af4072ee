// SPDX-License-Identifier: GPL-3.0-or-later
// plumb report: a review report (PDF, or PNG pages) from the workspace, without a display.
#include "cli_report.h"

#include "report/reportbuilder.h"
#include "report/reportdocument.h"
#include "store/workspace.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <iterator>

using namespace plumb;

namespace {

void err(const QString &s)
{
    std::fputs(QString(QStringLiteral("plumb: ") + s + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
}

QStringList listOf(const QString &value)
{
    QStringList out;
    for (const QString &v : value.split(u',', Qt::SkipEmptyParts))
        if (!v.trimmed().isEmpty())
            out << v.trimmed();
    return out;
}

struct ReportArgs {
    QString workspace;
    QString output;
    QString templatePath;
    ReportOptions options;
    QString error;
};

// Options given on the command line win over the template's.
ReportArgs parseReport(int argc, char **argv)
{
    ReportArgs a;
    QStringList runs, sections;
    QString baseline, title, author, pageSize, dpi;
    QString runList, sectionList;
    const std::pair<const char *, QString *> valued[] = {
        { "--workspace", &a.workspace },
        { "-w", &a.workspace },
        { "-o", &a.output },
        { "--output", &a.output },
        { "--template", &a.templatePath },
        { "--runs", &runList },
        { "--sections", &sectionList },
        { "--baseline", &baseline },
        { "--title", &title },
        { "--author", &author },
        { "--page-size", &pageSize },
        { "--dpi", &dpi },
    };
    for (int i = 2; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        const auto option = std::find_if(std::begin(valued), std::end(valued),
            [&](const auto &o) { return arg == QLatin1String(o.first); });
        if (option == std::end(valued)) {
            a.error = QStringLiteral("unknown option %1").arg(arg);
            return a;
        }
        if (i + 1 >= argc) {
            a.error = QStringLiteral("%1 needs a value").arg(arg);
            return a;
        }
        *option->second = QString::fromLocal8Bit(argv[++i]);
        if (option->second == &runList)
            runs << listOf(runList);
        else if (option->second == &sectionList)
            sections << listOf(sectionList);
    }
    if (a.output.isEmpty()) {
        a.error = QStringLiteral("report needs -o FILE (review.pdf, or review.png for PNG pages)");
        return a;
    }
    const QString suffix = QFileInfo(a.output).suffix().toLower();
    if (suffix != QLatin1String("pdf") && suffix != QLatin1String("png")) {
        a.error = QStringLiteral("-o takes a .pdf or a .png file, not %1").arg(a.output);
        return a;
    }
    if (!a.templatePath.isEmpty())
        if (const QString e = applyReportTemplate(a.templatePath, a.options); !e.isEmpty()) {
            a.error = e;
            return a;
        }
    // The same checks as a template's, so the messages are the same.
    QByteArray overrides;
    auto add = [&](const char *key, const QString &value) {
        if (!value.isEmpty())
            overrides += QByteArray(key) + ": \""
                + value.toUtf8().replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n") + "\"\n";
    };
    add("title", title);
    add("author", author);
    add("baseline", baseline);
    add("page_size", pageSize);
    add("dpi", dpi);
    if (const QString e = applyReportTemplateText(overrides, QStringLiteral("command line"), a.options);
        !e.isEmpty()) {
        a.error = e;
        return a;
    }
    if (!runs.isEmpty())
        a.options.runs = runs;
    if (!sections.isEmpty())
        a.options.sections = sections;
    if (a.workspace.isEmpty())
        a.workspace = qEnvironmentVariable("PLUMB_WORKSPACE");
    if (a.workspace.isEmpty())
        a.workspace = Workspace::defaultPath();
    return a;
}

} // namespace

int runReport(int argc, char **argv)
{
    // Charts are widgets: a QApplication is needed, on the offscreen platform when there is no display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Plumb"));
    QCoreApplication::setApplicationName(QStringLiteral("Plumb"));
    const ReportArgs a = parseReport(argc, argv);
    if (!a.error.isEmpty()) {
        err(a.error + QStringLiteral("\nRun `plumb --help` for usage."));
        return 2;
    }
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral(
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
            err(build.error);
            return 1;
        }
        const qint64 builtMs = timer.elapsed();
        QString error;
        int pages = 0;
        const QStringList files
            = writeReport(std::move(build.model), a.options, a.output, &error, {}, &pages);
        if (files.isEmpty()) {
            err(error);
            return 1;
        }
        const QString written
            = files.size() == 1 ? files.front() : QStringLiteral("%1 … %2").arg(files.front(), files.back());
        std::printf("%s: %d pages (analyses %.2f s, drawing %.2f s)\n", qPrintable(written), pages,
            double(builtMs) / 1e3, double(timer.elapsed() - builtMs) / 1e3);
    } catch (const std::exception &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, QString::fromUtf8(e.what())));
        return 1;
    }
    return 0;
}
