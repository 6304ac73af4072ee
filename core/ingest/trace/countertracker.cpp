// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace/countertracker.h"

#include "timeline/countersummary.h"

namespace plumb {

void CounterTracker::buildSummaries(SqliteDb &db, int64_t traceId)
{
    buildCounterSummaries(db, traceId);
}

} // namespace plumb
