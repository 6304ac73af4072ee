// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace plumb {

// Where an analysis takes its figures from: the summaries stored at import when they answer it
// (analysis/tracesummary.h), else the events; or always the events (`plumb doctor|diff --from-events`).
enum class ReportSource { Summaries, Events };

} // namespace plumb
