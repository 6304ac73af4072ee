// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/protowire.h"
#include "xplane/idindex.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plumb {

class DiagnosticLog;

// One XStatMetadata of a plane, with the JSON text a stat that uses it needs.
struct StatMeta {
    enum Role : uint8_t { Plain, Correlation, KernelDetails, MemcpyDetails };
    std::string name;
    std::string key; // "name": ready to append
    std::string refJson; // the name as a JSON value, for ref_value stats that point here
    std::string refDetailsJson; // the name parsed as details, for details stats that point here
    bool refDetailsDone = false;
    Role role = Plain;
};

// Maps XStats to JSON args: holds a plane's stat metadata (XPlane.stat_metadata) and turns each
// XStat into `"name":value`. Numbers stay numbers (a double that is not finite becomes null), strings
// are escaped, bytes become "<N bytes>", `ref_value` resolves to the name of the stat metadata it
// points at, `kernel_details` / `memcpy_details` text ("regs:32 grid:1,1,1 ...") becomes a JSON
// object, and `correlation_id` is not an arg at all but the slice's correlation.
//
// A stat whose metadata the plane does not define is kept under the key "#<id>", with one warning
// per id and plane; a ref_value that points nowhere is null, counted in one diagnostic.
class StatDecoder {
public:
    explicit StatDecoder(DiagnosticLog &diag)
        : m_diag(diag)
    {
    }

    // Reads a plane's stat_metadata map entries; `planeName` (a view that must outlive the plane)
    // names the plane in diagnostics.
    void loadPlane(const std::vector<ProtoWire::Span> &entries, std::string_view planeName);

    // Appends one stat as `"key":value` (after a comma when `out` has content and does not end in
    // '{'); the correlation id goes to `corr` instead. Sets `memcpyDetails` for a memcpy_details stat.
    void append(std::string &out, ProtoWire::Span stat, int64_t &corr, bool &memcpyDetails);

private:
    StatMeta *meta(int64_t id);

    DiagnosticLog &m_diag;
    std::string_view m_planeName;
    std::vector<StatMeta> m_metas; // in the order of the plane's entries
    IdIndex m_index; // metadata id -> m_metas position
    std::unordered_map<int64_t, StatMeta> m_unknown; // ids the plane uses but does not define
};

} // namespace plumb
