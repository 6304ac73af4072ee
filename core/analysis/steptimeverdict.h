// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/steptime.h"
#include "analysis/verdict.h"

#include <QString>

#include <vector>

namespace plumb {

// Verdicts on step time (see steptime.h), as users count it: the components' costs are the parts of
// the step's wall time: input pipeline, synchronisation, exposed memcpy/memset, exposed communication,
// and host/launch overhead (runtime calls, other CPU work and idle: the device waited on a host that
// queued nothing); computation is the device computing. Named as diagnose() names them on the GPU
// window: a cost of at least kMinLimitingShare of the wall time that beats the next by kClearMargin,
// else computation when it fills kComputeBoundShare, else inconclusive.
[[nodiscard]] Verdict stepTimeVerdict(const StepTimeParts &parts);

// One verdict per step of `st` (stepTimeVerdict() of its parts); and `overall`'s `where` set to the
// steps (their wall time) in which its component (the top cost when inconclusive) cost most step time.
[[nodiscard]] std::vector<Verdict> diagnoseStepTimes(const StepTimeBreakdown &st, Verdict &overall);

// "step time 175.3 ms a step over 10 steps: device compute 20.1%, ..., idle 3.0%": the evidence line
// for the overall verdict; empty without steps.
[[nodiscard]] QString stepTimeEvidence(const StepTimeBreakdown &st);

} // namespace plumb
