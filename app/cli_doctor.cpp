// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_doctor.h"

#include "present/doctorpresent.h"
#include "present/selection.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFileInfo>
#include <QJsonDocument>

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

int runDoctor(const Args &a)
{
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral("no workspace at %1; import a trace first (plumb import trace.json) or pass "
                           "--workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        const TraceSelection chosen = selectTraces(ws, a.paths);
        if (!chosen.ok()) {
            err(chosen.error);
            return 1;
        }
        const DoctorFindings findings = doctorFindings(ws, chosen.traces, a.mode);
        out(a.json ? QString::fromUtf8(QJsonDocument(doctorJson(findings)).toJson(QJsonDocument::Indented))
                   : doctorText(findings));
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}
