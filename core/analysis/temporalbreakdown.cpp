// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/temporalbreakdown.h"

#include "store/workspace.h"

#include <QStringList>

#include <algorithm>
#include <iterator>

namespace plumb {

namespace {

using Intervals = std::vector<std::pair<int64_t, int64_t>>;

} // namespace

Intervals uniteIntervals(Intervals v)
{
    // The sweep needs starts in order, nothing more: GPU ops arrive in start order, so usually
    // nothing is sorted (ops starting together on several streams need not be ordered by end).
    const auto byStart = [](const auto &x, const auto &y) { return x.first < y.first; };
    if (!std::is_sorted(v.begin(), v.end(), byStart))
        std::sort(v.begin(), v.end(), byStart);
    // United in place (the output never outruns the input): no second vector of millions to fault in.
    size_t n = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        const auto [a, b] = v[i];
        if (b <= a)
            continue;
        if (n > 0 && a <= v[n - 1].second)
            v[n - 1].second = std::max(v[n - 1].second, b);
        else
            v[n++] = { a, b };
    }
    v.resize(n);
    return v;
}

namespace {

Intervals unite(Intervals v)
{
    return uniteIntervals(std::move(v));
}

int64_t length(const Intervals &u)
{
    int64_t n = 0;
    for (const auto &[a, b] : u)
        n += b - a;
    return n;
}

// Time during which exactly each set of lists covers, over lists each sorted and disjoint: out[mask] for
// the set whose list k sets bit k. A sweep over their edges in time order, N cursors and no edge list:
// the edges of a million kernels, materialised and merged, were 55 MB at the summary pass's peak.
template <size_t N>
std::array<int64_t, size_t(1) << N> timeByCover(const std::array<const Intervals *, N> &lists)
{
    std::array<int64_t, size_t(1) << N> out {};
    std::array<size_t, N> at {}; // each list's interval at the sweep
    std::array<bool, N> inside {}; // whether the sweep is inside it (past its start)
    size_t mask = 0;
    int64_t t = 0;
    for (;;) {
        int64_t next = INT64_MAX;
        size_t which = N;
        for (size_t k = 0; k < N; ++k) {
            if (at[k] >= lists[k]->size())
                continue;
            const auto &[a, b] = (*lists[k])[at[k]];
            if (const int64_t edge = inside[k] ? b : a; edge < next) {
                next = edge;
                which = k;
            }
        }
        if (which == N)
            return out;
        if (mask != 0)
            out[mask] += next - t;
        t = next;
        inside[which] = !inside[which];
        mask ^= size_t(1) << which;
        if (!inside[which])
            ++at[which];
    }
}

} // namespace

QString kindSetName(int kinds)
{
    static const char *const names[] = { "COMPUTATION", "COMMUNICATION", "MEMORY" };
    QStringList parts;
    for (int k = 0; k < 3; ++k)
        if (kinds & (1 << k))
            parts << QLatin1String(names[k]);
    return parts.join(QLatin1String(" overlapping "));
}

std::vector<std::pair<int64_t, int64_t>> gpuIdleIntervals(const std::vector<GpuOp> &ops)
{
    Intervals all;
    all.reserve(ops.size());
    for (const GpuOp &op : ops)
        all.emplace_back(op.startNs, op.endNs);
    const Intervals busy = unite(std::move(all));
    Intervals idle;
    for (size_t i = 1; i < busy.size(); ++i)
        idle.emplace_back(busy[i - 1].second, busy[i].first);
    return idle;
}

TemporalBreakdown breakdownOf(const std::vector<GpuOp> &ops)
{
    TemporalBreakdown r;
    if (ops.empty())
        return r;
    // Ops with gaps between them stay as many intervals: the largest kind's reserved rather than regrown.
    Intervals compute, comm, memory, untyped;
    compute.reserve(size_t(std::count_if(ops.begin(), ops.end(),
        [](const GpuOp &op) { return !op.untyped && op.kind == GpuOp::Kind::Compute; })));
    r.startNs = INT64_MAX;
    r.endNs = INT64_MIN;
    for (const GpuOp &op : ops) {
        r.startNs = std::min(r.startNs, op.startNs);
        r.endNs = std::max(r.endNs, op.endNs);
        appendInterval(op.untyped ? untyped // busy, of no kernel type (HTA's view of MTIA's pe_exe)
                : op.kind == GpuOp::Kind::Compute ? compute
                : op.kind == GpuOp::Kind::Comm    ? comm
                                                  : memory,
            op.startNs, op.endNs);
    }
    r.ops = int64_t(ops.size());
    const Intervals uCompute = unite(std::move(compute)), uComm = unite(std::move(comm)),
                    uMemory = unite(std::move(memory)), uUntyped = unite(std::move(untyped));
    r.computeNs = length(uCompute);
    r.commNs = length(uComm);
    r.memoryNs = length(uMemory);
    // Bits 0-2 the kinds, bit 3 the untyped ops, which count as busy and as no kind.
    const std::array<int64_t, 16> cover = timeByCover<4>({ &uCompute, &uComm, &uMemory, &uUntyped });
    for (size_t mask = 1; mask < cover.size(); ++mask) {
        r.busyNs += cover[mask];
        if ((mask & 7) != 0)
            r.byKinds[mask & 7] += cover[mask];
    }
    r.exposedCommNs = r.byKinds[2] + r.byKinds[6]; // communication with nothing or memory beside it
    r.exposedMemoryNs = r.byKinds[4];
    return r;
}

TemporalBreakdown temporalBreakdown(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode)
{
    return temporalBreakdown(ws, traceId, mode, INT64_MIN, INT64_MAX);
}

TemporalBreakdown temporalBreakdown(
    Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode, int64_t fromNs, int64_t toNs)
{
    std::vector<GpuOp> ops = readGpuOps(ws, traceId, mode, fromNs, toNs);
    for (GpuOp &op : ops)
        op.endNs = std::min(op.endNs, toNs);
    return breakdownOf(ops);
}

} // namespace plumb
