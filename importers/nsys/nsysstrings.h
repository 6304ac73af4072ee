// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/foreignsqlitedb.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace plumb {
class DiagnosticLog;
class TraceSink;
} // namespace plumb

namespace plumb::nsys {

// The export's strings (StringIds: id -> text, which names, kernels, NVTX texts and backtrace frames
// refer to), read on demand and each cached by id: as the text, or interned in the workspace's string
// table. An id the export lacks reads as "[string N]" with a warning.
class NsysStrings {
public:
    NsysStrings(ForeignSqliteDb &db, TraceSink &sink, DiagnosticLog &diag);

    // The text of a StringIds id; valid until the next call.
    [[nodiscard]] std::string_view lookup(int64_t id);
    // The interned string of a StringIds id.
    [[nodiscard]] int64_t nameOf(int64_t stringId);
    // The same without a CUDA API version suffix ("cudaLaunchKernel_v7000" -> "cudaLaunchKernel").
    [[nodiscard]] int64_t apiNameOf(int64_t stringId);
    // A backtrace frame's function, or its module's file name (`module`: without its directory).
    [[nodiscard]] const std::string &frameText(int64_t stringId, bool module);

private:
    TraceSink &m_sink;
    DiagnosticLog &m_diag;
    ForeignSqliteDb::Stmt m_lookup;
    std::string m_scratch;
    std::unordered_map<int64_t, int64_t> m_names; // StringIds id -> interned id
    std::unordered_map<int64_t, int64_t> m_apiNames; // same, version suffix stripped
    std::unordered_map<int64_t, std::string> m_functionNames, m_moduleNames; // see frameText()
};

} // namespace plumb::nsys
