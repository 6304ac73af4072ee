// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "report/reportbuilder.h"

#include <vector>

namespace plumb {

// The built-in sections, in their default order: steps, idle, kernels, timeline, ranks, diff,
// metrics, importance, config, lineage, diagnostics.
[[nodiscard]] std::vector<ReportSectionDef> builtinReportSections();

// The executive summary's lines on goodput (each covered job with a lifecycle log) and serving (each
// serving run: requests, p99 latency, error rate).
[[nodiscard]] QStringList goodputAndServingSummary(ReportContext &c);

} // namespace plumb
