// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_check.h"

#include "present/checkpresent.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

using namespace plumb;

namespace {

using cli::out;

// Bad input (an unreadable or malformed file, an unknown run, no workspace) is exit status 2 for check.
int inputError(const QString &s)
{
    cli::err(s);
    return 2;
}

} // namespace

int runCheck(const cli::Args &a)
{
    const QString &objectivesPath = a.objectivesPath, &workspace = a.workspace, &junitPath = a.junitPath;
    const CheckOptions &options = a.check;
    const bool json = a.json, allowMissing = a.allowMissing;
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
