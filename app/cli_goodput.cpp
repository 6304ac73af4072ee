// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_goodput.h"

#include "present/goodputpresent.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFileInfo>
#include <QJsonDocument>

#include <cmath>
#include <cstdio>

using namespace plumb;

namespace {

void out(const QString &s)
{
    std::fputs(s.toLocal8Bit().constData(), stdout);
}

void err(const QString &s)
{
    std::fputs(QString(QStringLiteral("plumb: ") + s + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
}

struct GoodputArgs {
    QString run;
    QString workspace;
    bool json = false;
    GoodputOptions options;
    QString error;
};

bool positiveNumber(const QString &text, double &value)
{
    bool ok = false;
    value = text.toDouble(&ok);
    return ok && std::isfinite(value) && value > 0;
}

GoodputArgs parseArgs(int argc, char **argv)
{
    GoodputArgs a;
    for (int i = 2; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        const QString next = i + 1 < argc ? QString::fromLocal8Bit(argv[i + 1]) : QString();
        double v = 0;
        if (arg == QLatin1String("--json")) {
            a.json = true;
        } else if (arg == QLatin1String("--workspace") || arg == QLatin1String("-w")) {
            if (next.isEmpty()) {
                a.error = QStringLiteral("--workspace needs a FILE");
                return a;
            }
            a.workspace = next;
            ++i;
        } else if (arg.startsWith(QLatin1String("--workspace="))) {
            a.workspace = arg.mid(12);
        } else if (arg == QLatin1String("--flops-per-step") || arg == QLatin1String("--peak-flops")
            || arg == QLatin1String("--interval")) {
            if (!positiveNumber(next, v)) {
                a.error = QStringLiteral("%1 needs a positive number, e.g. %1 %2")
                              .arg(arg,
                                  arg == QLatin1String("--interval") ? QStringLiteral("600")
                                                                     : QStringLiteral("3.3e15"));
                return a;
            }
            ++i;
            if (arg == QLatin1String("--flops-per-step"))
                a.options.flopsPerStep = v;
            else if (arg == QLatin1String("--peak-flops"))
                a.options.peakFlopsPerSecond = v;
            else
                a.options.intervalNs = int64_t(std::llround(v * 1e9));
        } else if (arg.startsWith(QLatin1String("--"))) {
            a.error = QStringLiteral("unknown option %1").arg(arg);
            return a;
        } else if (a.run.isEmpty()) {
            a.run = arg;
        } else {
            a.error = QStringLiteral("goodput takes one RUN (an id or a name)");
            return a;
        }
    }
    if (a.workspace.isEmpty())
        a.workspace = qEnvironmentVariable("PLUMB_WORKSPACE");
    if (a.workspace.isEmpty())
        a.workspace = Workspace::defaultPath();
    return a;
}

} // namespace

int runGoodputCommand(int argc, char **argv)
{
    const GoodputArgs a = parseArgs(argc, argv);
    if (!a.error.isEmpty()) {
        err(a.error + QStringLiteral("\nRun `plumb --help` for usage."));
        return 2;
    }
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral(
            "no workspace at %1; import a job lifecycle log or an experiment log first, or pass "
            "--workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        const GoodputLookup lookup = readGoodput(ws, a.run, a.options);
        if (!lookup.error.isEmpty()) {
            err(lookup.error);
            return 1;
        }
        out(a.json
                ? QString::fromUtf8(QJsonDocument(goodputJson(lookup.report)).toJson(QJsonDocument::Indented))
                : goodputText(lookup.report));
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}
