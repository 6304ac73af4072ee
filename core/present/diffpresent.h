// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/gpuops.h"
#include "analysis/tracediff.h"

#include <QJsonObject>
#include <QString>

namespace plumb {

// `d` (diffTraces() of the baseline and the compared trace, ops counted as `mode` says) as the
// `plumb.diff/1` JSON object (docs/json.md): the headline, the step time and its parts' changes,
// both sides (with their doctor verdict components, when given), the window's change, and every GPU
// op whose time changed.
[[nodiscard]] QJsonObject diffJson(const TraceDiff &d, GpuOpMode mode, const QString &verdictA = QString(),
    const QString &verdictB = QString());
// `d` as `plumb diff` prints it: both sides, the headline (diffHeadline()) and, when both verdict
// components (componentName()) are given, the verdict's change; the step time split into its parts,
// largest change first; the GPU window split by category, and the (at most 12) GPU ops that changed
// most.
[[nodiscard]] QString diffText(
    const TraceDiff &d, const QString &verdictA = QString(), const QString &verdictB = QString());

// The word for an op's change in both: "added", "removed", "slower", "faster", "same".
[[nodiscard]] QString changeName(TraceDiff::OpDelta::Change c);

} // namespace plumb
