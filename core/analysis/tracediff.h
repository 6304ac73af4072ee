// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/kerneltable.h"
#include "analysis/temporalbreakdown.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// What changed from trace A (the baseline) to trace B. Times are per step when both traces have
// training steps (the mean over their steps, so traces of different lengths compare), else for the
// whole trace. The window's change splits exactly into the changes of computation, exposed
// communication, exposed memory and idle, so a slowdown is attributed to where it happened.
struct TraceDiff {
    struct Side {
        int64_t traceId = 0;
        QString name;
        int steps = 0; // training steps found (0: the whole trace is one window)
        double windowNs = 0; // per step (or whole trace)
        double computeNs = 0;
        double exposedCommNs = 0;
        double exposedMemoryNs = 0;
        double idleNs = 0;
        double stepNs = 0; // per step: the step on the CPU (its annotation); 0 without steps
    };
    // Per GPU op name, totals per step (or whole trace).
    struct OpDelta {
        enum class Change { Added, Removed, Slower, Faster, Same };
        QString name;
        GpuOp::Kind kind = GpuOp::Kind::Compute;
        double countA = 0, countB = 0;
        double totalA = 0, totalB = 0; // ns
        [[nodiscard]] double deltaNs() const { return totalB - totalA; }
        [[nodiscard]] Change change() const;
    };
    Side a, b;
    bool perStep = false;
    std::vector<OpDelta> ops; // by |delta| descending

    [[nodiscard]] double windowDeltaNs() const { return b.windowNs - a.windowNs; }
};

// Ops whose per-step total moves less than this share of their baseline are "same".
constexpr double kSameOpTolerance = 0.02;

[[nodiscard]] TraceDiff diffTraces(
    Workspace &ws, int64_t traceA, int64_t traceB, TemporalBreakdown::Mode mode);

// Per step, how the steps' own time (on the CPU) changed, split into the GPU window's change and the
// rest: time the steps spent with no GPU work of their own (loading input, host work before the first
// launch). Empty without steps.
[[nodiscard]] QString stepTimeNote(const TraceDiff &d);

} // namespace plumb
