#include "servingsink.h"

#include "sqlitedb.h"

namespace plumb {

namespace {

constexpr int kColumns = 13;

std::string insertSql(int rows)
{
    std::string sql = "INSERT INTO serving_request(run_id, seq, source_id, start_ns, latency_ns, ttft_ns, input_tokens, "
                      "output_tokens, ok, status_id, model_id, endpoint_id, itl) VALUES ";
    for (int r = 0; r < rows; ++r)
        sql += r == 0 ? "(?,?,?,?,?,?,?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?,?,?,?,?,?,?)";
    return sql;
}

} // namespace

ServingSink::ServingSink(SqliteDb &db, int64_t sourceId)
    : m_db(db)
    , m_sourceId(sourceId)
    , m_insert(std::make_unique<SqliteStmt>(db, insertSql(1)))
    , m_insertBatch(std::make_unique<SqliteStmt>(db, insertSql(kBatchRows)))
    , m_label(std::make_unique<SqliteStmt>(db,
          "INSERT INTO serving_label(text) VALUES (?) ON CONFLICT(text) DO UPDATE SET text = excluded.text "
          "RETURNING id"))
{
    m_rows.reserve(kBatchRows);
}

ServingSink::~ServingSink() = default;

int64_t ServingSink::label(std::string_view text, LabelSlot slot)
{
    if (text.empty())
        return 0;
    if (text == m_lastLabel[slot])
        return m_lastLabelId[slot];
    for (const auto &[known, knownId] : m_recentLabels) // a few values taking turns (models, endpoints)
        if (text == known) {
            m_lastLabel[slot].assign(text);
            return m_lastLabelId[slot] = knownId;
        }
    int64_t id;
    if (const auto it = m_labels.find(text); it != m_labels.end()) {
        id = it->second;
    } else {
        m_label->bind(1, text);
        m_label->step();
        id = m_label->columnInt(0);
        m_label->reset();
        m_labels.emplace(std::string(text), id);
    }
    if (m_recentLabels.size() < kRecentLabels)
        m_recentLabels.emplace_back(std::string(text), id);
    m_lastLabel[slot].assign(text);
    m_lastLabelId[slot] = id;
    return id;
}

int64_t ServingSink::nextSeq(int64_t runId)
{
    if (runId == m_lastRun)
        return (*m_lastSeq)++;
    auto it = m_seq.find(runId);
    if (it == m_seq.end()) {
        SqliteStmt st(m_db, "SELECT coalesce(max(seq) + 1, 0) FROM serving_request WHERE run_id = ?");
        st.bind(1, runId);
        st.step();
        it = m_seq.emplace(runId, st.columnInt(0)).first;
    }
    m_lastRun = runId;
    m_lastSeq = &it->second;
    return (*m_lastSeq)++;
}

void ServingSink::add(int64_t runId, const ServingRequest &r)
{
    Row row;
    row.run = runId;
    row.seq = nextSeq(runId);
    row.start = r.startNs;
    row.latency = r.latencyNs;
    row.ttft = r.ttftNs;
    row.in = r.inputTokens;
    row.out = r.outputTokens;
    row.ok = r.ok;
    row.status = label(r.status, StatusLabel);
    row.model = label(r.model, ModelLabel);
    row.endpoint = label(r.endpoint, EndpointLabel);
    row.itlBegin = m_blob.size();
    for (size_t i = 0; i < r.itlCount; ++i) {
        const uint64_t v = uint64_t(r.itlNs[i]);
        for (int b = 0; b < 8; ++b)
            m_blob.push_back(static_cast<unsigned char>(v >> (8 * b)));
    }
    row.itlEnd = m_blob.size();
    m_rows.push_back(row);
    ++m_requests;
    if (m_rows.size() == size_t(kBatchRows)) {
        write(*m_insertBatch, 0, m_rows.size());
        m_rows.clear();
        m_blob.clear();
    }
}

void ServingSink::write(SqliteStmt &st, size_t first, size_t count)
{
    for (size_t k = 0; k < count; ++k) {
        const Row &r = m_rows[first + k];
        const int b = int(k) * kColumns;
        const auto optional = [&](int i, int64_t v, bool known) {
            if (known)
                st.bind(b + i, v);
            else
                st.bindNull(b + i);
        };
        st.bind(b + 1, r.run).bind(b + 2, r.seq).bind(b + 3, m_sourceId);
        optional(4, r.start, r.start != ServingRequest::kUnknownTime);
        optional(5, r.latency, r.latency >= 0);
        optional(6, r.ttft, r.ttft >= 0);
        optional(7, r.in, r.in >= 0);
        optional(8, r.out, r.out >= 0);
        st.bind(b + 9, int64_t(r.ok ? 1 : 0));
        optional(10, r.status, r.status != 0);
        optional(11, r.model, r.model != 0);
        optional(12, r.endpoint, r.endpoint != 0);
        if (r.itlEnd > r.itlBegin)
            st.bindBlob(b + 13, m_blob.data() + r.itlBegin, r.itlEnd - r.itlBegin);
        else
            st.bindNull(b + 13);
    }
    st.step();
    st.resetKeepBindings();
}

void ServingSink::finish()
{
    for (size_t i = 0; i < m_rows.size(); ++i)
        write(*m_insert, i, 1);
    m_rows.clear();
    m_blob.clear();
}

} // namespace plumb
