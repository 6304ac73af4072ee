// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/idlebreakdown.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <algorithm>
#include <map>

namespace plumb {

std::vector<StreamIdle> idleBreakdown(Workspace &ws, const std::vector<GpuOp> &ops, int64_t kernelWaitNs)
{
    std::map<int64_t, std::vector<const GpuOp *>> byStream;
    for (const GpuOp &op : ops)
        byStream[op.streamTrackId].push_back(&op);
    std::vector<StreamIdle> out;
    SqliteStmt stream(ws.db(), "SELECT coalesce(stream, -1) FROM track WHERE id = ?");
    for (auto &[track, list] : byStream) {
        std::stable_sort(
            list.begin(), list.end(), [](const GpuOp *a, const GpuOp *b) { return a->startNs < b->startNs; });
        StreamIdle s;
        s.streamTrackId = track;
        stream.bind(1, track);
        if (stream.step())
            s.stream = stream.columnInt(0);
        stream.reset();
        for (size_t i = 1; i < list.size(); ++i) {
            const int64_t prevEnd = list[i - 1]->endNs;
            const int64_t gap = list[i]->startNs - prevEnd;
            ++s.gaps;
            if (list[i]->launchNs >= 0 && list[i]->launchNs > prevEnd)
                s.hostWaitNs += gap;
            else if (gap < kernelWaitNs)
                s.kernelWaitNs += gap;
            else
                s.otherNs += gap;
        }
        out.push_back(s);
    }
    std::sort(
        out.begin(), out.end(), [](const StreamIdle &a, const StreamIdle &b) { return a.stream < b.stream; });
    return out;
}

} // namespace plumb
