// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace plumb {
class DiagnosticLog;
class TraceSink;
struct BackendEvidence;
} // namespace plumb

namespace plumb::chrometrace {

// The top-level fields of a trace object other than traceEvents, collected as one JSON object's text
// (`json`, "{" and its members, closed here): kept whole as the trace's metadata (minified), and read
// for what Kineto writes there: deviceProperties -> devices, distributedInfo -> the rank and world
// size, baseTimeNanoseconds -> the trace's base time. The first device's name (and whether its
// properties are ROCm's) go into `evidence`, when given.
void applyTopLevelFields(
    std::string &json, TraceSink &sink, DiagnosticLog &diag, BackendEvidence *evidence = nullptr);

} // namespace plumb::chrometrace
