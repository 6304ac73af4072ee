// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>
#include <optional>

namespace plumb {

class Workspace;

// Where a trace's events are when this workspace holds only its summaries (a rank of a job that
// `plumb merge` built from shards, job_rank): the shard workspace and the trace's id there. Nothing for
// a trace whose events are here.
struct EventsLocation {
    QString workspacePath;
    int64_t traceId = 0;
};
[[nodiscard]] std::optional<EventsLocation> eventsLocation(Workspace &ws, int64_t traceId);

} // namespace plumb
