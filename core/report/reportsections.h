#pragma once

#include "reportbuilder.h"

#include <vector>

namespace plumb {

// The built-in sections, in their default order: steps, idle, kernels, timeline, ranks, diff,
// metrics, importance, config, lineage, diagnostics.
[[nodiscard]] std::vector<ReportSectionDef> builtinReportSections();

} // namespace plumb
