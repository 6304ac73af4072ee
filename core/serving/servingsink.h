// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/batchwriter.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plumb {

class SqliteDb;
class SqliteStmt;

// One request of an LLM-serving benchmark or request log, as an importer read it. Negative
// durations and counts mean "not said"; kUnknownTime likewise for the start.
struct ServingRequest {
    static constexpr int64_t kUnknownTime = INT64_MIN;
    int64_t startNs = kUnknownTime; // epoch ns the request was sent
    int64_t latencyNs = -1; // end to end
    int64_t ttftNs = -1; // time to first token
    int64_t inputTokens = -1;
    int64_t outputTokens = -1;
    bool ok = true;
    std::string_view status; // as written ("200", "error: timeout"); empty: none
    std::string_view model;
    std::string_view endpoint;
    const int64_t *itlNs = nullptr; // inter-token latencies
    size_t itlCount = 0;
};

// The write side of serving requests (the serving_request table, schema v10), in the import's
// transaction. Requests go to a writer thread in batches of kBatchRows, so that parsing and SQLite
// inserts overlap (a 10M-row log spent about half its import in each); the writer inserts
// kRowsPerInsert rows per INSERT (a statement per row spent half the import in SQLite's statement
// machinery). Each run's requests are numbered after those earlier imports stored for it, so a log
// read on from where its last import stopped continues the same sequence. Labels (model, endpoint,
// status) are interned in serving_label.
//
// The connection belongs to the writer while batches are queued: the importer calls quiesce()
// before it touches the connection itself (opening a run), and finish() at the end, which writes
// the rest. Destroying an unfinished sink (an error or a cancel) stops the writer and leaves the
// caller to roll back the transaction.
class ServingSink {
public:
    ServingSink(SqliteDb &db, int64_t sourceId);
    ~ServingSink();
    ServingSink(const ServingSink &) = delete;
    ServingSink &operator=(const ServingSink &) = delete;

    void add(int64_t runId, const ServingRequest &r);
    // Waits until every request added so far is written and the writer is idle. Throws SqlError.
    void quiesce();
    // Writes the requests still buffered and stops the writer. Throws SqlError.
    void finish();
    [[nodiscard]] int64_t requests() const { return m_requests; }

    static constexpr size_t kBatchRows = 8192; // per hand-over to the writer
    static constexpr int kRowsPerInsert = 64;

private:
    struct Row {
        int64_t run, start, latency, ttft, in, out;
        uint32_t status, model, endpoint; // labels by index + 1 in the order met; 0: none
        bool ok;
        uint32_t itlBegin, itlEnd; // bytes in Batch::blob
    };
    struct Batch {
        std::vector<Row> rows;
        std::vector<unsigned char> blob; // ITLs of the rows
        std::vector<std::string> newLabels; // labels first met in this batch, in index order
        void clear()
        {
            rows.clear();
            blob.clear();
            newLabels.clear();
        }
    };
    struct Writer; // the writer's statements, label ids and sequence numbers
    enum LabelSlot { StatusLabel, ModelLabel, EndpointLabel, LabelSlots };
    uint32_t label(std::string_view text, LabelSlot slot); // 0: none
    void push();

    int64_t m_sourceId;
    struct StringHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
    };
    std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> m_labels; // text -> index + 1
    std::string m_lastLabel[LabelSlots]; // the last text of each slot and its index: logs repeat them
    uint32_t m_lastLabelId[LabelSlots] = {};
    static constexpr size_t kRecentLabels = 16;
    std::vector<std::pair<std::string, uint32_t>>
        m_recentLabels; // the first labels met, searched before the map
    int64_t m_requests = 0;
    bool m_finished = false;

    std::unique_ptr<Writer> m_target; // used by the writer thread while it runs, else by this one
    std::unique_ptr<Batch> m_current; // being filled
    BatchWriter<Batch> m_writer;
};

} // namespace plumb
