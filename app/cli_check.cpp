// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_check.h"

#include "present/checkpresent.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <cstdio>

using namespace plumb;

namespace {

void out(const QString &s)
{
    std::fputs(s.toLocal8Bit().constData(), stdout);
}

int usageError(const QString &s)
{
    std::fputs(QString(QStringLiteral("plumb: ") + s + QStringLiteral("\nRun `plumb --help` for usage.\n"))
                   .toLocal8Bit()
                   .constData(),
        stderr);
    return 2;
}

int inputError(const QString &s)
{
    std::fputs(QString(QStringLiteral("plumb: ") + s + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
    return 2;
}

} // namespace

int runCheck(int argc, char **argv)
{
    QString objectivesPath, workspace, junitPath;
    CheckOptions options;
    bool json = false, allowMissing = false;
    for (int i = 2; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        const auto value = [&](QString &into) {
            if (i + 1 >= argc)
                return false;
            into = QString::fromLocal8Bit(argv[++i]);
            return true;
        };
        if (arg == QLatin1String("--objectives")) {
            if (!value(objectivesPath))
                return usageError(QStringLiteral("--objectives needs a FILE"));
        } else if (arg == QLatin1String("--baseline")) {
            if (!value(options.baseline))
                return usageError(QStringLiteral("--baseline needs a RUN (id or name)"));
        } else if (arg == QLatin1String("--run")) {
            if (!value(options.run))
                return usageError(QStringLiteral("--run needs a RUN (id or name)"));
        } else if (arg == QLatin1String("--junit")) {
            if (!value(junitPath))
                return usageError(QStringLiteral("--junit needs a FILE to write"));
        } else if (arg == QLatin1String("--workspace") || arg == QLatin1String("-w")) {
            if (!value(workspace))
                return usageError(QStringLiteral("--workspace needs a FILE"));
        } else if (arg == QLatin1String("--json")) {
            json = true;
        } else if (arg == QLatin1String("--allow-missing")) {
            allowMissing = true;
        } else {
            return usageError(QStringLiteral("unknown argument %1 for check").arg(arg));
        }
    }
    if (objectivesPath.isEmpty())
        return usageError(QStringLiteral("check needs --objectives FILE"));
    if (workspace.isEmpty())
        workspace = qEnvironmentVariable("PLUMB_WORKSPACE");
    if (workspace.isEmpty())
        workspace = Workspace::defaultPath();

    QString readError;
    const auto file = readObjectivesFile(objectivesPath, readError);
    if (!file)
        return inputError(readError);
    if (!QFileInfo::exists(workspace))
        return inputError(QStringLiteral("no workspace at %1 (plumb import creates one)").arg(workspace));

    CheckPresentation check;
    try {
        Workspace ws(workspace, Workspace::Role::Reader);
        check = checkObjectives(ws, *file, objectivesPath, options, allowMissing);
    } catch (const CheckInputError &e) {
        return inputError(e.message);
    } catch (const SqlError &e) {
        return inputError(QStringLiteral("cannot read the workspace %1: %2").arg(workspace, e.message()));
    }

    if (!junitPath.isEmpty()) {
        QFile j(junitPath);
        if (!j.open(QIODevice::WriteOnly | QIODevice::Truncate) || j.write(checkJUnit(check)) < 0)
            return inputError(QStringLiteral("cannot write the JUnit file %1").arg(junitPath));
    }
    out(json ? QString::fromUtf8(QJsonDocument(checkJson(check)).toJson(QJsonDocument::Indented))
             : checkText(check));
    return check.broken() ? 1 : 0;
}
