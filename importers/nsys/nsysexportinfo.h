// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <initializer_list>

namespace plumb {
class DiagnosticLog;
class TraceSink;
} // namespace plumb

namespace plumb::nsys {

class NsysBacktraces;
class NsysSchema;
class NsysTracks;

// What an Nsight Systems export says about itself and about what it holds beside events: the
// session's start (the trace's base time), the GPUs (TARGET_INFO_GPU, or TARGET_INFO_CUDA_DEVICE in
// older exports), the export's metadata (META_DATA_EXPORT), nsys' own warnings and errors
// (DIAGNOSTIC_EVENT), and the event tables the importer does not read.

void readSessionStart(NsysSchema &schema, TraceSink &sink);
// Each GPU as a device of the trace (every column as JSON), its name for its process.
void readDevices(NsysSchema &schema, TraceSink &sink, NsysTracks &tracks);
void readExportMetadata(NsysSchema &schema, TraceSink &sink);
// Nsight Systems' warnings and errors (what its Diagnostics Summary lists) as the source's warnings,
// each distinct message once; its info messages (event counts, what was injected) are not copied.
void readNsysDiagnostics(NsysSchema &schema, DiagnosticLog &diag);
// Tables of events the importer does not read, their rows counted as skipped; backtraces not read
// (`read`: those that were), said as info. Tables that only name or describe things (strings, enums,
// target and session info) are not events and are not listed.
void reportUnreadTables(
    NsysSchema &schema, DiagnosticLog &diag, std::initializer_list<const NsysBacktraces *> read);

} // namespace plumb::nsys
