// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/kerneltable.h"
#include "analysis/reportsource.h"
#include "analysis/steptime.h"
#include "analysis/temporalbreakdown.h"
#include "analysis/verdict.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// What changed from trace A (the baseline) to trace B, first as users measure it: the mean wall time
// of a step (stepTimeBreakdown()) and its eight parts, whose changes add up to the step time's change.
// Then the GPU window: per step when both traces have training steps (the mean over their steps, so
// traces of different lengths compare), else for the whole trace. The window's change splits exactly
// into the changes of computation, exposed communication, exposed memory and idle.
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
        // Step time (stepTimeBreakdown()): the steps it found, the mean wall time of one (ns), and the
        // mean of each part per step (by StepTimePart), which add up to stepWallNs.
        int timedSteps = 0;
        double stepWallNs = 0;
        double partNs[kStepTimePartCount] = {};
        Verdict verdict; // the doctor's (diagnose()) over the same ops
    };
    // One part of step time on both sides (ns, mean per step).
    struct StepComponent {
        StepTimePart part = StepTimePart::Compute;
        double baselineNs = 0, comparedNs = 0;
        [[nodiscard]] double deltaNs() const { return comparedNs - baselineNs; }
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
    // "GPU", or "device" when neither trace ran on a GPU (deviceNoun()): how the texts name the device.
    QString deviceNoun = QStringLiteral("GPU");
    bool perStep = false;
    std::vector<OpDelta> ops; // by |delta| descending
    // The eight parts of step time by |delta| descending (ties in StepTimePart order); empty unless
    // both sides have step time.
    std::vector<StepComponent> stepComponents;

    [[nodiscard]] double windowDeltaNs() const { return b.windowNs - a.windowNs; }
    [[nodiscard]] bool hasStepTime() const { return a.timedSteps > 0 && b.timedSteps > 0; }
    [[nodiscard]] double stepTimeDeltaNs() const { return b.stepWallNs - a.stepWallNs; }
};

// Ops whose per-step total moves less than this share of their baseline are "same".
constexpr double kSameOpTolerance = 0.02;

// A step time change smaller than this share of the baseline's is "about the same".
constexpr double kSameStepTimeShare = 0.005;

// `stepOptions` names further input-pipeline ranges for the step time. Each side comes from the report
// stored at import when it answers (analysis/tracesummary.h; `source`), else from its events.
[[nodiscard]] TraceDiff diffTraces(Workspace &ws, int64_t traceA, int64_t traceB,
    TemporalBreakdown::Mode mode, const StepTimeOptions &stepOptions = {},
    ReportSource source = ReportSource::Summaries);

// The diff's headline as plain text. With step time on both sides: "Step time 77.53 → 124.1 ms per
// step (12.9 → 8.06 steps/s): B is 60.1% slower." then the parts that explain it, largest change
// first ("device compute +44.37 ms, exposed memcpy/memset +12.86 ms, ..."; at most four, those under
// 5% of the change left out and summed as "other parts"), so the figures named add up to the change. Without:
// a sentence saying which side has no steps, then the GPU window's change (per step or over the whole trace)
// and the category most of it went to.
[[nodiscard]] QString diffHeadline(const TraceDiff &d);
// "No step time to compare: B has no training steps." (A, neither) for a diff without step time.
[[nodiscard]] QString noStepTimeText(const TraceDiff &d);
// "Verdict: X in both (unchanged)." or "Verdict: X in A -> Y in B (changed)." from the two sides'
// doctor verdict components (componentName()).
[[nodiscard]] QString verdictChange(const QString &componentA, const QString &componentB);

} // namespace plumb
