#include "servingsink.h"

#include "sqlitedb.h"

namespace plumb {

ServingSink::ServingSink(SqliteDb &db, int64_t sourceId)
    : m_db(db)
    , m_sourceId(sourceId)
    , m_insert(std::make_unique<SqliteStmt>(db,
          "INSERT INTO serving_request(run_id, seq, source_id, start_ns, latency_ns, ttft_ns, input_tokens, "
          "output_tokens, ok, status_id, model_id, endpoint_id, itl) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"))
    , m_label(std::make_unique<SqliteStmt>(db,
          "INSERT INTO serving_label(text) VALUES (?) ON CONFLICT(text) DO UPDATE SET text = excluded.text "
          "RETURNING id"))
{
}

ServingSink::~ServingSink() = default;

int64_t ServingSink::label(std::string_view text)
{
    if (text.empty())
        return 0;
    const auto it = m_labels.find(text);
    if (it != m_labels.end())
        return it->second;
    m_label->bind(1, text);
    m_label->step();
    const int64_t id = m_label->columnInt(0);
    m_label->reset();
    m_labels.emplace(std::string(text), id);
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
    SqliteStmt &st = *m_insert;
    const auto optional = [&](int i, int64_t v, bool known) {
        if (known)
            st.bind(i, v);
        else
            st.bindNull(i);
    };
    const int64_t status = label(r.status), model = label(r.model), endpoint = label(r.endpoint);
    st.bind(1, runId).bind(2, nextSeq(runId)).bind(3, m_sourceId);
    optional(4, r.startNs, r.startNs != ServingRequest::kUnknownTime);
    optional(5, r.latencyNs, r.latencyNs >= 0);
    optional(6, r.ttftNs, r.ttftNs >= 0);
    optional(7, r.inputTokens, r.inputTokens >= 0);
    optional(8, r.outputTokens, r.outputTokens >= 0);
    st.bind(9, int64_t(r.ok ? 1 : 0));
    optional(10, status, status != 0);
    optional(11, model, model != 0);
    optional(12, endpoint, endpoint != 0);
    if (r.itlCount > 0) {
        m_blob.resize(r.itlCount * 8);
        for (size_t i = 0; i < r.itlCount; ++i) {
            const uint64_t v = uint64_t(r.itlNs[i]);
            for (int b = 0; b < 8; ++b)
                m_blob[i * 8 + size_t(b)] = static_cast<unsigned char>(v >> (8 * b));
        }
        st.bindBlob(13, m_blob.data(), m_blob.size());
    } else {
        st.bindNull(13);
    }
    st.step();
    st.resetKeepBindings();
    ++m_requests;
}

} // namespace plumb
