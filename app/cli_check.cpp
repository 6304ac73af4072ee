// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_check.h"

#include "present/checkpresent.h"
#include "store/workspace.h"

#include <QFile>

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
    QString readError;
    const auto file = readObjectivesFile(a.objectivesPath, readError);
    if (!file)
        return inputError(readError);
    CheckPresentation check;
    const int status = cli::withWorkspace(
        a.workspace, QStringLiteral("plumb import creates one"),
        [&](Workspace &ws) {
            try {
                check = checkObjectives(ws, *file, a.objectivesPath, a.check, a.allowMissing);
                return 0;
            } catch (const CheckInputError &e) {
                return inputError(e.message);
            }
        },
        2);
    if (status != 0)
        return status;
    if (!a.junitPath.isEmpty()) {
        QFile j(a.junitPath);
        if (!j.open(QIODevice::WriteOnly | QIODevice::Truncate) || j.write(checkJUnit(check)) < 0)
            return inputError(
                QStringLiteral("cannot write the JUnit file %1: %2").arg(a.junitPath, j.errorString()));
    }
    out(a.json ? cli::jsonText(checkJson(check)) : checkText(check));
    return check.broken() ? 1 : 0;
}
