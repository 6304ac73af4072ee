// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/steptime.h"
#include "analysis/devicebackend.h"

#include "analysis/gpuops.h"
#include "analysis/hostanalysis.h"
#include "analysis/stepbreakdown.h"
#include "analysis/temporalbreakdown.h"
#include "analysis/threadops.h"
#include "store/sqlidlist.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <unordered_set>

namespace plumb {

StepTimeParts &StepTimeParts::operator+=(const StepTimeParts &o)
{
    computeNs += o.computeNs;
    exposedCommNs += o.exposedCommNs;
    exposedMemoryNs += o.exposedMemoryNs;
    inputPipelineNs += o.inputPipelineNs;
    synchronizationNs += o.synchronizationNs;
    runtimeNs += o.runtimeNs;
    otherCpuNs += o.otherCpuNs;
    idleNs += o.idleNs;
    return *this;
}

const std::array<StepTimePartInfo, kStepTimePartCount> &stepTimeParts()
{
    using P = StepTimePart;
    static const std::array<StepTimePartInfo, kStepTimePartCount> parts { {
        { P::Compute, "compute", "device compute", &StepTimeParts::computeNs },
        { P::ExposedComm, "exposed_comm", "exposed communication", &StepTimeParts::exposedCommNs },
        { P::ExposedMemory, "exposed_memory", "exposed memcpy/memset", &StepTimeParts::exposedMemoryNs },
        { P::InputPipeline, "input_pipeline", "input pipeline", &StepTimeParts::inputPipelineNs },
        { P::Synchronization, "synchronization", "synchronisation", &StepTimeParts::synchronizationNs },
        { P::Runtime, "runtime", "runtime calls", &StepTimeParts::runtimeNs },
        { P::OtherCpu, "other_cpu", "other CPU work", &StepTimeParts::otherCpuNs },
        { P::Idle, "idle", "idle", &StepTimeParts::idleNs },
    } };
    return parts;
}

namespace {

using Intervals = std::vector<std::pair<int64_t, int64_t>>;

// The parts in priority order (idle, the eighth, is what none of them covers).
enum Part { Compute, Comm, Memory, Input, Sync, Runtime, OtherCpu, kParts };

int64_t &partOf(StepTimeParts &p, int part)
{
    switch (part) {
    case Compute:
        return p.computeNs;
    case Comm:
        return p.exposedCommNs;
    case Memory:
        return p.exposedMemoryNs;
    case Input:
        return p.inputPipelineNs;
    case Sync:
        return p.synchronizationNs;
    case Runtime:
        return p.runtimeNs;
    case OtherCpu:
        return p.otherCpuNs;
    default:
        return p.idleNs;
    }
}

// Assigns every stretch of the steps' wall time to the first part (in Part order) whose united
// intervals cover it, else to idle: one sweep merging the parts' sorted edges and the steps' in place
// (each part's intervals are sorted and disjoint: a part is active between an interval's start and end).
void assign(std::vector<StepTime> &steps, const std::array<Intervals, kParts> &parts)
{
    constexpr int64_t kEnd = INT64_MAX;
    std::array<size_t, kParts> pos {}; // each part's next edge: interval pos / 2, its start when even
    auto partEdge = [&](int k) {
        const Intervals &p = parts[size_t(k)];
        const size_t i = pos[size_t(k)];
        return i >= 2 * p.size() ? kEnd : i % 2 == 0 ? p[i / 2].first : p[i / 2].second;
    };
    size_t stepPos = 0; // the steps' next edge, likewise
    auto stepEdge = [&] {
        return stepPos >= 2 * steps.size() ? kEnd
            : stepPos % 2 == 0             ? steps[stepPos / 2].startNs
                                           : steps[stepPos / 2].endNs;
    };
    auto nextEdge = [&] {
        int64_t t = stepEdge();
        for (int k = 0; k < kParts; ++k)
            t = std::min(t, partEdge(k));
        return t;
    };
    size_t w = 0; // the step whose wall time the current stretch may be in
    for (int64_t a = nextEdge(); a != kEnd;) {
        for (int k = 0; k < kParts; ++k)
            while (partEdge(k) == a)
                ++pos[size_t(k)];
        while (stepEdge() == a)
            ++stepPos;
        const int64_t b = nextEdge();
        if (b == kEnd)
            break;
        while (w < steps.size() && steps[w].endNs <= a)
            ++w;
        if (w == steps.size())
            break;
        if (a >= steps[w].startNs) { // else before the first step (steps are contiguous after it)
            int part = kParts;
            for (int k = 0; k < kParts && part == kParts; ++k)
                if (pos[size_t(k)] % 2 == 1)
                    part = k;
            partOf(steps[w].parts, part) += b - a; // [a, b) lies in one step: its edges are edges here
        }
        a = b;
    }
}

} // namespace

StepTimeBreakdown stepTimeBreakdown(Workspace &ws, int64_t traceId, const StepTimeOptions &options)
{
    return stepTimeBreakdown(ws, traceId, readGpuOps(ws, traceId, GpuOpMode::EveryOp), options);
}

StepTimeBreakdown stepTimeBreakdown(Workspace &ws, int64_t traceId, const std::vector<GpuOp> &ops,
    const StepTimeOptions &options, HostSliceTap *hostTap)
{
    return stepTimeBreakdown(stepTimeHostPass(ws, traceId, options, hostTap), ops);
}

StepTimeBreakdown stepTimeBreakdown(StepTimeHostPass host, const std::vector<GpuOp> &ops)
{
    StepTimeBreakdown out;
    if (host.steps.empty())
        return out;
    out.steps = std::move(host.steps);
    std::array<Intervals, kParts> &parts = host.parts;
    // 1-3: the device.
    for (const GpuOp &op : ops)
        appendInterval(parts[op.kind == GpuOp::Kind::Compute  ? Compute
                               : op.kind == GpuOp::Kind::Comm ? Comm
                                                              : Memory],
            op.startNs, op.endNs);
    for (Intervals &p : parts)
        p = uniteIntervals(std::move(p));
    assign(out.steps, parts);
    for (const StepTime &s : out.steps)
        out.total += s.parts;
    return out;
}

StepTimeHostPass stepTimeHostPass(Workspace &ws, int64_t traceId, const StepTimeOptions &options,
    HostSliceTap *hostTap, ThreadOpTap *threadOps)
{
    StepTimeHostPass out;
    const std::vector<StepMarker> markers = traceSteps(ws, traceId);
    if (markers.empty()) {
        if (threadOps)
            threadOps->ops = readThreadOps(ws.db(), traceId, threadOps->names);
        return out;
    }
    for (size_t i = 0; i < markers.size(); ++i) {
        StepTime s;
        s.step = markers[i].number;
        s.name = markers[i].name;
        s.spanStartNs = markers[i].startNs;
        // The gap since the step before belongs to this one; a span ending inside the one before
        // (overlapping markers) leaves it no time of its own.
        s.startNs = i == 0 ? markers[i].startNs : out.steps.back().endNs;
        s.endNs = std::max(markers[i].endNs, s.startNs);
        out.steps.push_back(s);
    }
    std::array<Intervals, kParts> &parts = out.parts;

    // 4-7: the host. The names and categories that match, decided once per string.
    SqliteDb &db = ws.db();
    std::unordered_set<int64_t> inputNames, syncNames, runtimeCats, syncCats;
    {
        SqliteStmt st(db,
            options.inputPatterns.isEmpty()
                ? "SELECT id, str FROM string WHERE str LIKE '%DataLoader%' OR str IN (" + sqlSyncCallList()
                    + ") OR str IN ('aten::item', 'aten::_local_scalar_dense')"
                : std::string("SELECT id, str FROM string"));
        while (st.step()) {
            const QString name = st.columnText(1);
            const HostActivity k = classifyHostName(name);
            bool input = k == HostActivity::InputPipeline;
            for (const QRegularExpression &re : options.inputPatterns)
                input = input || re.match(name).hasMatch();
            if (input)
                inputNames.insert(st.columnInt(0));
            else if (k == HostActivity::Synchronization)
                syncNames.insert(st.columnInt(0));
        }
        // Every backend's runtime and driver categories, and its sync events (analysis/devicebackend.h).
        SqliteStmt cats(db,
            "SELECT id, str FROM string WHERE str IN ("
                + sqlCategoryList({ CategoryRole::Runtime, CategoryRole::Driver, CategoryRole::Sync }) + ")");
        while (cats.step())
            (categoryRole(cats.columnView(1)) == CategoryRole::Sync ? syncCats : runtimeCats)
                .insert(cats.columnInt(0));
    }
    // The step's thread: the marker tracks and the thread tracks of the same thread (process, label).
    std::unordered_set<int64_t> stepTracks;
    for (const StepMarker &m : markers)
        stepTracks.insert(m.trackId);
    {
        const std::string key = "coalesce(process_id, 0) || ':' || coalesce(label, '')";
        SqliteStmt st(db,
            "SELECT id FROM track WHERE trace_id = ? AND kind = 'thread' AND " + key + " IN (SELECT " + key
                + " FROM track WHERE id IN (" + sqlIdList(stepTracks) + "))");
        st.bind(1, traceId);
        while (st.step())
            stepTracks.insert(st.columnInt(0));
    }
    // Whether [a, b) encloses a whole step span (an ancestor of the steps, or a step itself): that is
    // not work of a step. Spans by start; of those starting at or after a, the first ends first.
    auto enclosesStep = [&](int64_t a, int64_t b) {
        auto it = std::lower_bound(
            markers.begin(), markers.end(), a, [](const StepMarker &m, int64_t t) { return m.startNs < t; });
        return it != markers.end() && it->endNs <= b;
    };
    // Each track read on its own, its slices classified here through flat tables by string id: an
    // IN list per row in SQL costs more than the row. A thread track off the step's thread keeps only
    // its named slices and runtime categories; other tracks (the device's) their sync categories. The
    // host analysis's names (hostTap) are taken from the thread and CUDA API tracks as they pass, the
    // named CPU ops (threadOps) from the thread tracks.
    enum : uint8_t {
        kInputName = 1,
        kSyncName = 2,
        kSyncCat = 4,
        kRuntimeCat = 8,
        kHostName = 16,
        kThreadOp = 32
    };
    std::vector<uint8_t> flags;
    auto mark = [&flags](const std::unordered_set<int64_t> &ids, uint8_t flag) {
        for (const int64_t id : ids) {
            if (id < 0)
                continue;
            if (size_t(id) >= flags.size())
                flags.resize(size_t(id) + 1);
            flags[size_t(id)] |= flag;
        }
    };
    mark(inputNames, kInputName);
    mark(syncNames, kSyncName);
    mark(syncCats, kSyncCat);
    mark(runtimeCats, kRuntimeCat);
    std::unordered_set<int64_t> hostNames;
    if (hostTap)
        for (const auto &[id, activity] : hostTap->names)
            hostNames.insert(id);
    mark(hostNames, kHostName);
    if (threadOps)
        mark(threadOps->names, kThreadOp);
    auto flagOf
        = [&flags](int64_t id) { return id >= 0 && size_t(id) < flags.size() ? flags[size_t(id)] : 0; };
    std::vector<std::pair<int64_t, std::string>> tracks;
    {
        SqliteStmt st(db, "SELECT id, kind FROM track WHERE trace_id = ? ORDER BY id");
        st.bind(1, traceId);
        while (st.step())
            tracks.emplace_back(st.columnInt(0), std::string(st.columnView(1)));
    }
    // (Empty and negative slices cover no time, but the host analysis counts them.)
    SqliteStmt all(
        db, "SELECT ts, dur, name_id, coalesce(cat_id, -1), ext_id, args_id FROM slice WHERE track_id = ?");
    // Off the step's thread only what is named, or a runtime or sync category, counts.
    std::unordered_set<int64_t> named = inputNames, cats = runtimeCats;
    named.insert(syncNames.begin(), syncNames.end());
    named.insert(hostNames.begin(), hostNames.end());
    if (threadOps)
        named.insert(threadOps->names.begin(), threadOps->names.end());
    cats.insert(syncCats.begin(), syncCats.end());
    SqliteStmt offStep(db,
        "SELECT ts, dur, name_id, coalesce(cat_id, -1), ext_id, args_id FROM slice WHERE track_id = ? AND "
        "(name_id IN ("
            + sqlIdList(named) + ") OR cat_id IN (" + sqlIdList(cats) + "))");
    std::unique_ptr<SqliteStmt> synced;
    if (!syncCats.empty())
        synced = std::make_unique<SqliteStmt>(db,
            "SELECT ts, dur, name_id, cat_id FROM slice WHERE track_id = ? AND dur > 0 AND cat_id IN ("
                + sqlIdList(syncCats) + ")");
    for (const auto &[track, kind] : tracks) {
        const bool cudaApi = kind == "cuda_api", thread = kind == "thread";
        const bool host = cudaApi || thread;
        const bool onStepThread = host && stepTracks.count(track);
        SqliteStmt *st = cudaApi || onStepThread ? &all : host ? &offStep : synced.get();
        if (!st)
            continue;
        st->bind(1, track);
        while (st->step()) {
            const int64_t a = st->columnInt(0), dur = st->columnInt(1), b = a + dur,
                          nameId = st->columnInt(2);
            const uint8_t name = flagOf(nameId), cat = flagOf(st->columnInt(3));
            if ((name & kHostName) && host)
                hostTap->slices.push_back({ track, a, dur, nameId });
            if ((name & kThreadOp) && thread && !st->columnIsNull(4) && !st->columnIsNull(5))
                threadOps->ops.push_back({ st->columnInt(4), nameId, st->columnInt(5) });
            if (dur <= 0)
                continue;
            if (name & kInputName)
                appendInterval(parts[Input], a, b);
            else if ((name & kSyncName) || (cat & kSyncCat))
                appendInterval(parts[Sync], a, b);
            else if (!host)
                continue;
            else if ((cat & kRuntimeCat) || cudaApi)
                appendInterval(parts[Runtime], a, b);
            else if (onStepThread && !enclosesStep(a, b))
                appendInterval(parts[OtherCpu], a, b);
        }
        st->reset();
    }
    if (hostTap)
        hostTap->read = true;
    return out;
}

} // namespace plumb
