// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace plumb {
class DiagnosticLog;
class TraceSink;
} // namespace plumb

namespace plumb::chrometrace {

// The top-level fields of a trace object other than traceEvents, collected as one JSON object's text
// (`json`, "{" and its members, closed here): kept whole as the trace's metadata (minified), and read
// for what Kineto writes there: deviceProperties -> devices, distributedInfo -> the rank and world
// size, baseTimeNanoseconds -> the trace's base time.
void applyTopLevelFields(std::string &json, TraceSink &sink, DiagnosticLog &diag);

} // namespace plumb::chrometrace
