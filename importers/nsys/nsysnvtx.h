// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/tracesink.h"

#include <QString>

#include <cstdint>
#include <future>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace plumb {
class DiagnosticLog;
class RangeProjection;
} // namespace plumb

namespace plumb::nsys {

class NsysArgs;
class NsysSchema;
class NsysStrings;
class NsysTracks;
struct NsysCursor;

// NVTX_EVENTS onto the trace: ranges and marks -> slices on their thread's track (category nvtx; a
// mark, or a range the capture cut, with duration 0), their domain and category by name and their
// payload in the args; the records that name domains and categories are read first (startNames()),
// and are not slices. After the last row, each range is projected onto the GPU streams its CUDA calls
// launched work on, as Nsight Systems draws NVTX under each stream (gpu_user_annotation).
class NsysNvtx {
public:
    // NVTX's naming records (domain and category names), read on a connection of their own.
    struct Name {
        int64_t type = 0, domain = 0, category = 0, textId = kNoValue;
        std::string text;
    };

    NsysNvtx(NsysSchema &schema, NsysStrings &strings, NsysTracks &tracks, NsysArgs &args, TraceSink &sink,
        DiagnosticLog &diag, RangeProjection &projection);

    [[nodiscard]] std::future<std::vector<Name>> startNames(const QString &path);
    void setNames(std::vector<Name> names);
    void handle(NsysCursor &c, SliceFields &f);
    // After the last row: the ranges on the GPU (see RangeProjection).
    void project();
    // After the last row: what the import should say about NVTX_EVENTS.
    void report();

private:
    NsysSchema &m_schema;
    NsysStrings &m_strings;
    NsysTracks &m_tracks;
    NsysArgs &m_args;
    TraceSink &m_sink;
    DiagnosticLog &m_diag;
    // NVTX ranges projected onto the GPU streams (see project()), and each kept range's name.
    RangeProjection &m_projection;
    std::vector<int64_t> m_rangeNames;
    int64_t m_catGpuAnnotation = 0;
    int64_t m_catNvtx = 0;
    int64_t m_skipped = 0;
    // NVTX domain names by domainId, category names by (domainId, category).
    std::unordered_map<int64_t, std::string> m_domains;
    std::map<std::pair<int64_t, int64_t>, std::string> m_categories;
};

} // namespace plumb::nsys
