// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/gpuops.h"
#include "analysis/tracediff.h"

#include <QJsonObject>
#include <QString>

namespace plumb {

// `d` (diffTraces() of the baseline and the compared trace, ops counted as `mode` says) as the
// `plumb.diff/1` JSON object (docs/json.md): both sides, the window's change, and every GPU op whose
// time changed.
[[nodiscard]] QJsonObject diffJson(const TraceDiff &d, GpuOpMode mode);
// `d` as `plumb diff` prints it: both sides, the window split by category, and the (at most 12) GPU
// ops that changed most.
[[nodiscard]] QString diffText(const TraceDiff &d);

// The word for an op's change in both: "added", "removed", "slower", "faster", "same".
[[nodiscard]] QString changeName(TraceDiff::OpDelta::Change c);

} // namespace plumb
