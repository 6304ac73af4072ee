// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/protowire.h"
#include "ingest/tracesink.h"
#include "xplane/idindex.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plumb {

class DiagnosticLog;
class StatDecoder;

// One XEventMetadata of a plane, with what every event that uses it shares.
struct EventMeta {
    std::string name; // display_name, else name
    int64_t nameId = kNoValue; // interned on first use
    std::string fragment; // constant args: long_name and the metadata's stats, without braces
    int64_t fragmentArgsId = kNoValue;
    bool fragmentInterned = false;
    int64_t corr = kNoValue; // a correlation_id among the metadata's stats
    bool memcpyName = false, memsetName = false, pythonName = false, driverName = false;
    bool memcpyDetails = false;
};

// Maps a plane's event metadata (XPlane.event_metadata) to EventMeta by id: the name an event shows
// (display_name, else name; a different name is kept as the arg long_name), the constant args from
// the metadata's own stats, and what the name says of its category (memcpy, memset, a Python
// function "$...", a CUDA driver call "cuXxx"). An event whose metadata the plane does not define
// is named "#<id>", with one warning per id and plane.
class EventMetaTable {
public:
    explicit EventMetaTable(DiagnosticLog &diag)
        : m_diag(diag)
    {
    }

    // Reads a plane's event_metadata map entries; their stats go through `stats`, which must hold
    // the plane's stat metadata already. `planeName` names the plane in diagnostics.
    void loadPlane(
        const std::vector<ProtoWire::Span> &entries, StatDecoder &stats, std::string_view planeName);

    [[nodiscard]] EventMeta &find(int64_t id)
    {
        const int32_t i = m_index.find(id);
        return i >= 0 ? m_metas[size_t(i)] : unknown(id);
    }

private:
    EventMeta &unknown(int64_t id);

    DiagnosticLog &m_diag;
    std::string_view m_planeName;
    std::vector<EventMeta> m_metas; // in the order of the plane's entries
    IdIndex m_index; // metadata id -> m_metas position
    std::unordered_map<int64_t, EventMeta> m_unknown; // ids the plane uses but does not define
};

} // namespace plumb
