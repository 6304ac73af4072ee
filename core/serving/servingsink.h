#pragma once

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

// The write side of serving requests (the serving_request table, schema v9), in the import's
// transaction, kBatchRows rows per INSERT (a statement per row spent half the import in SQLite's
// statement machinery); finish() writes the rest. Each run's requests are numbered after those earlier imports stored for it, so a log
// read on from where its last import stopped continues the same sequence. Labels (model, endpoint,
// status) are interned in serving_label.
class ServingSink {
public:
    ServingSink(SqliteDb &db, int64_t sourceId);
    ~ServingSink();
    ServingSink(const ServingSink &) = delete;
    ServingSink &operator=(const ServingSink &) = delete;

    void add(int64_t runId, const ServingRequest &r);
    // Writes the rows still buffered. Throws SqlError.
    void finish();
    [[nodiscard]] int64_t requests() const { return m_requests; }

    static constexpr int kBatchRows = 64;

private:
    struct Row {
        int64_t run, seq, start, latency, ttft, in, out, status, model, endpoint;
        bool ok;
        size_t itlBegin, itlEnd; // bytes in m_blob
    };
    enum LabelSlot { StatusLabel, ModelLabel, EndpointLabel, LabelSlots };
    int64_t label(std::string_view text, LabelSlot slot); // 0: none
    int64_t nextSeq(int64_t runId);
    void write(SqliteStmt &st, size_t first, size_t count);

    SqliteDb &m_db;
    int64_t m_sourceId;
    std::unique_ptr<SqliteStmt> m_insert; // one row
    std::unique_ptr<SqliteStmt> m_insertBatch; // kBatchRows rows
    std::unique_ptr<SqliteStmt> m_label;
    struct StringHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
    };
    std::unordered_map<std::string, int64_t, StringHash, std::equal_to<>> m_labels;
    std::unordered_map<int64_t, int64_t> m_seq; // run -> next seq
    int64_t m_lastRun = -1;
    int64_t *m_lastSeq = nullptr;
    std::string m_lastLabel[LabelSlots]; // the last text of each slot and its id: logs repeat them
    int64_t m_lastLabelId[LabelSlots] = {};
    static constexpr size_t kRecentLabels = 16;
    std::vector<std::pair<std::string, int64_t>> m_recentLabels; // the first labels met, searched before the map
    std::vector<Row> m_rows; // buffered
    std::vector<unsigned char> m_blob; // ITLs of the buffered rows
    int64_t m_requests = 0;
};

} // namespace plumb
