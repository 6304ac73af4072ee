// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_diff.h"

#include "analysis/tracediff.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "text/textformat.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

int runDiff(const Args &a)
{
    if (a.paths.size() != 2) {
        err(QStringLiteral(
            "diff needs two trace ids: the baseline and the trace to compare (plumb ls lists them)"));
        return 2;
    }
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral("no workspace at %1; import the traces first or pass --workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        int64_t ids[2];
        for (int i = 0; i < 2; ++i) {
            bool ok = false;
            ids[i] = a.paths[i].toLongLong(&ok);
            SqliteStmt st(ws.db(), "SELECT count(*) FROM trace WHERE id = ?");
            st.bind(1, ids[i]);
            if (!ok || !st.step() || st.columnInt(0) == 0) {
                err(QStringLiteral("no trace %1 in %2 (plumb ls lists them)").arg(a.paths[i], a.workspace));
                return 1;
            }
        }
        const GpuOpMode mode = a.mode;
        const TraceDiff d = diffTraces(ws, ids[0], ids[1], mode);
        static const char *const changeNames[] = { "added", "removed", "slower", "faster", "same" };
        if (a.json) {
            QJsonObject o;
            auto side = [](const TraceDiff::Side &s) {
                QJsonObject j;
                j[QStringLiteral("trace")] = double(s.traceId);
                j[QStringLiteral("name")] = s.name;
                j[QStringLiteral("steps")] = s.steps;
                j[QStringLiteral("window_ns")] = s.windowNs;
                j[QStringLiteral("compute_ns")] = s.computeNs;
                j[QStringLiteral("exposed_comm_ns")] = s.exposedCommNs;
                j[QStringLiteral("exposed_memory_ns")] = s.exposedMemoryNs;
                j[QStringLiteral("idle_ns")] = s.idleNs;
                if (s.stepNs > 0)
                    j[QStringLiteral("step_ns")] = s.stepNs;
                return j;
            };
            o[QStringLiteral("baseline")] = side(d.a);
            o[QStringLiteral("compared")] = side(d.b);
            o[QStringLiteral("per_step")] = d.perStep;
            o[QStringLiteral("window_delta_ns")] = d.windowDeltaNs();
            QJsonArray ops;
            for (const auto &op : d.ops) {
                if (op.change() == TraceDiff::OpDelta::Change::Same)
                    continue;
                QJsonObject j;
                j[QStringLiteral("name")] = op.name;
                j[QStringLiteral("change")] = QLatin1String(changeNames[int(op.change())]);
                j[QStringLiteral("count_baseline")] = op.countA;
                j[QStringLiteral("count_compared")] = op.countB;
                j[QStringLiteral("total_baseline_ns")] = op.totalA;
                j[QStringLiteral("total_compared_ns")] = op.totalB;
                j[QStringLiteral("delta_ns")] = op.deltaNs();
                ops.append(j);
            }
            o[QStringLiteral("ops")] = ops;
            out(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
            return 0;
        }
        auto ms = [](double ns) { return QString::number(ns / 1e6, 'f', 3); };
        auto signedMs = [](double ns) -> QString {
            return (ns >= 0 ? QStringLiteral("+") : QString()) + QString::number(ns / 1e6, 'f', 3);
        };
        out(QStringLiteral("baseline  trace %1  %2  (%3)\ncompared  trace %4  %5  (%6)\n")
                .arg(d.a.traceId)
                .arg(d.a.name,
                    d.perStep ? QStringLiteral("%1 steps").arg(d.a.steps) : QStringLiteral("no steps"))
                .arg(d.b.traceId)
                .arg(d.b.name,
                    d.perStep ? QStringLiteral("%1 steps").arg(d.b.steps) : QStringLiteral("no steps")));
        out(QStringLiteral("%1                 baseline ms   compared ms      change ms\n")
                .arg(d.perStep ? QStringLiteral("per step, GPU       ")
                               : QStringLiteral("whole trace, GPU    ")));
        auto line = [&](const QString &label, double x, double y) {
            out(QStringLiteral("  %1 %2 %3 %4\n")
                    .arg(label, -32)
                    .arg(ms(x), 12)
                    .arg(ms(y), 13)
                    .arg(signedMs(y - x), 14));
        };
        line(QStringLiteral("window"), d.a.windowNs, d.b.windowNs);
        line(QStringLiteral("  computation"), d.a.computeNs, d.b.computeNs);
        line(QStringLiteral("  exposed communication"), d.a.exposedCommNs, d.b.exposedCommNs);
        line(QStringLiteral("  exposed memcpy/memset"), d.a.exposedMemoryNs, d.b.exposedMemoryNs);
        line(QStringLiteral("  idle"), d.a.idleNs, d.b.idleNs);
        if (d.a.stepNs > 0 && d.b.stepNs > 0)
            line(QStringLiteral("step on the CPU"), d.a.stepNs, d.b.stepNs);
        if (const QString note = stepTimeNote(d); !note.isEmpty())
            out(QStringLiteral("  %1\n").arg(note));
        out(QStringLiteral("  GPU ops that changed most                            change    count     total "
                           "ms (A -> B)\n"));
        int shown = 0;
        for (const auto &op : d.ops) {
            if (op.change() == TraceDiff::OpDelta::Change::Same || shown == 12)
                continue;
            ++shown;
            const QString shortName = op.name.size() > 48 ? op.name.left(47) + QChar(0x2026) : op.name;
            out(QStringLiteral("    %1 %2 %3 -> %4  %5 -> %6 (%7)\n")
                    .arg(shortName, -48)
                    .arg(QLatin1String(changeNames[int(op.change())]), 8)
                    .arg(op.countA, 6, 'f', 0)
                    .arg(op.countB, 0, 'f', 0)
                    .arg(ms(op.totalA), 9)
                    .arg(ms(op.totalB))
                    .arg(signedMs(op.deltaNs())));
        }
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}
