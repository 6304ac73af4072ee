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

// Length of `a` not covered by `b` (both sorted and disjoint).
int64_t lengthOutside(const Intervals &a, const Intervals &b)
{
    int64_t n = 0;
    size_t j = 0;
    for (const auto &[s, e] : a) {
        int64_t cursor = s;
        while (j < b.size() && b[j].second <= cursor)
            ++j;
        for (size_t k = j; k < b.size() && b[k].first < e; ++k) {
            if (b[k].first > cursor)
                n += b[k].first - cursor;
            cursor = std::max(cursor, b[k].second);
            if (cursor >= e)
                break;
        }
        if (cursor < e)
            n += e - cursor;
    }
    return n;
}

// Time during which exactly each set of kinds ran, over the kinds' unions (disjoint within a kind).
std::array<int64_t, 8> timeByKinds(const std::array<const Intervals *, 3> &kinds)
{
    // Each kind's edges are already in order (its union is sorted and disjoint): merged, not sorted.
    using Edges = std::vector<std::pair<int64_t, int>>; // (time, +bit or -bit)
    Edges edges;
    for (int k = 0; k < 3; ++k) {
        Edges own;
        own.reserve(2 * kinds[size_t(k)]->size());
        for (const auto &[a, b] : *kinds[size_t(k)]) {
            own.emplace_back(a, 1 << k);
            own.emplace_back(b, -(1 << k));
        }
        Edges merged;
        merged.reserve(edges.size() + own.size());
        std::merge(edges.begin(), edges.end(), own.begin(), own.end(), std::back_inserter(merged));
        edges = std::move(merged);
    }
    std::array<int64_t, 8> out {};
    int running = 0;
    for (size_t i = 0; i < edges.size(); ++i) {
        running += edges[i].second;
        if (i + 1 < edges.size() && running > 0)
            out[size_t(running)] += edges[i + 1].first - edges[i].first;
    }
    return out;
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
    Intervals all, compute, comm, memory;
    // Ops with gaps between them stay as many intervals: reserved rather than regrown.
    all.reserve(ops.size());
    compute.reserve(ops.size());
    r.startNs = INT64_MAX;
    r.endNs = INT64_MIN;
    for (const GpuOp &op : ops) {
        r.startNs = std::min(r.startNs, op.startNs);
        r.endNs = std::max(r.endNs, op.endNs);
        appendInterval(all, op.startNs, op.endNs);
        if (op.untyped)
            continue; // busy, of no kernel type (HTA's view of MTIA's pe_exe)
        appendInterval(op.kind == GpuOp::Kind::Compute ? compute
                : op.kind == GpuOp::Kind::Comm         ? comm
                                                       : memory,
            op.startNs, op.endNs);
    }
    r.ops = int64_t(ops.size());
    const Intervals uCompute = unite(std::move(compute)), uComm = unite(std::move(comm)),
                    uMemory = unite(std::move(memory));
    r.busyNs = length(unite(std::move(all)));
    r.computeNs = length(uCompute);
    r.commNs = length(uComm);
    r.memoryNs = length(uMemory);
    r.byKinds = timeByKinds({ &uCompute, &uComm, &uMemory });
    r.exposedCommNs = lengthOutside(uComm, uCompute);
    Intervals computeOrComm; // both sorted: merged in order, so that unite() need not sort
    computeOrComm.reserve(uCompute.size() + uComm.size());
    std::merge(
        uCompute.begin(), uCompute.end(), uComm.begin(), uComm.end(), std::back_inserter(computeOrComm));
    r.exposedMemoryNs = lengthOutside(uMemory, unite(std::move(computeOrComm)));
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
