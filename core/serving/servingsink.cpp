// SPDX-License-Identifier: GPL-3.0-or-later
#include "serving/servingsink.h"

#include "store/sqlitedb.h"

namespace plumb {

namespace {

constexpr int kColumns = 13;
constexpr size_t kMaxQueuedBatches = 4; // memory stays flat whatever the input size

std::string insertSql(int rows)
{
    std::string sql
        = "INSERT INTO serving_request(run_id, seq, source_id, start_ns, latency_ns, ttft_ns, input_tokens, "
          "output_tokens, ok, status_id, model_id, endpoint_id, itl) VALUES ";
    for (int r = 0; r < rows; ++r)
        sql += r == 0 ? "(?,?,?,?,?,?,?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?,?,?,?,?,?,?)";
    return sql;
}

} // namespace

// What only the thread writing uses: statements, label ids, the next seq of each run.
struct ServingSink::Writer {
    explicit Writer(SqliteDb &db)
        : db(db)
        , insert(db, insertSql(1))
        , insertBatch(db, insertSql(kRowsPerInsert))
        , label(db,
              "INSERT INTO serving_label(text) VALUES (?) ON CONFLICT(text) DO UPDATE SET text = "
              "excluded.text "
              "RETURNING id")
    {
    }

    int64_t nextSeq(int64_t runId)
    {
        if (runId == lastRun)
            return (*lastSeq)++;
        auto it = seq.find(runId);
        if (it == seq.end()) {
            SqliteStmt st(db, "SELECT coalesce(max(seq) + 1, 0) FROM serving_request WHERE run_id = ?");
            st.bind(1, runId);
            st.step();
            it = seq.emplace(runId, st.columnInt(0)).first;
        }
        lastRun = runId;
        lastSeq = &it->second;
        return (*lastSeq)++;
    }

    void write(const Batch &b, int64_t sourceId)
    {
        for (const std::string &text : b.newLabels) {
            label.bind(1, text);
            label.step();
            labelIds.push_back(label.columnInt(0));
            label.reset();
        }
        size_t i = 0;
        for (; i + kRowsPerInsert <= b.rows.size(); i += kRowsPerInsert)
            write(insertBatch, b, i, kRowsPerInsert, sourceId);
        for (; i < b.rows.size(); ++i)
            write(insert, b, i, 1, sourceId);
    }

    void write(SqliteStmt &st, const Batch &batch, size_t first, int count, int64_t sourceId)
    {
        for (int k = 0; k < count; ++k) {
            const Row &r = batch.rows[first + size_t(k)];
            const int b = k * kColumns;
            const auto optional = [&](int i, int64_t v, bool known) {
                if (known)
                    st.bind(b + i, v);
                else
                    st.bindNull(b + i);
            };
            const auto labelId = [&](int i, uint32_t l) {
                if (l > 0)
                    st.bind(b + i, labelIds[l - 1]);
                else
                    st.bindNull(b + i);
            };
            st.bind(b + 1, r.run).bind(b + 2, nextSeq(r.run)).bind(b + 3, sourceId);
            optional(4, r.start, r.start != ServingRequest::kUnknownTime);
            optional(5, r.latency, r.latency >= 0);
            optional(6, r.ttft, r.ttft >= 0);
            optional(7, r.in, r.in >= 0);
            optional(8, r.out, r.out >= 0);
            st.bind(b + 9, int64_t(r.ok ? 1 : 0));
            labelId(10, r.status);
            labelId(11, r.model);
            labelId(12, r.endpoint);
            if (r.itlEnd > r.itlBegin)
                st.bindBlob(b + 13, batch.blob.data() + r.itlBegin, r.itlEnd - r.itlBegin);
            else
                st.bindNull(b + 13);
        }
        st.step();
        st.resetKeepBindings();
    }

    SqliteDb &db;
    SqliteStmt insert; // one row
    SqliteStmt insertBatch; // kRowsPerInsert rows
    SqliteStmt label;
    std::vector<int64_t> labelIds; // by label index
    std::unordered_map<int64_t, int64_t> seq; // run -> next seq
    int64_t lastRun = -1;
    int64_t *lastSeq = nullptr;
};

ServingSink::ServingSink(SqliteDb &db, int64_t sourceId)
    : m_sourceId(sourceId)
    , m_target(std::make_unique<Writer>(db))
    , m_current(std::make_unique<Batch>())
    , m_writer(kMaxQueuedBatches, [this](Batch &b) { m_target->write(b, m_sourceId); })
{
    m_current->rows.reserve(kBatchRows);
}

ServingSink::~ServingSink()
{
    // Abandoned (error or cancel) when not finished: the caller rolls back, so queued rows need not
    // be written.
    m_writer.abandon();
}

uint32_t ServingSink::label(std::string_view text, LabelSlot slot)
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
    uint32_t id;
    if (const auto it = m_labels.find(text); it != m_labels.end()) {
        id = it->second;
    } else {
        id = uint32_t(m_labels.size() + 1);
        m_labels.emplace(std::string(text), id);
        m_current->newLabels.emplace_back(text);
    }
    if (m_recentLabels.size() < kRecentLabels)
        m_recentLabels.emplace_back(std::string(text), id);
    m_lastLabel[slot].assign(text);
    m_lastLabelId[slot] = id;
    return id;
}

void ServingSink::add(int64_t runId, const ServingRequest &r)
{
    Batch &b = *m_current;
    Row row;
    row.run = runId;
    row.start = r.startNs;
    row.latency = r.latencyNs;
    row.ttft = r.ttftNs;
    row.in = r.inputTokens;
    row.out = r.outputTokens;
    row.ok = r.ok;
    row.status = label(r.status, StatusLabel);
    row.model = label(r.model, ModelLabel);
    row.endpoint = label(r.endpoint, EndpointLabel);
    row.itlBegin = uint32_t(b.blob.size());
    for (size_t i = 0; i < r.itlCount; ++i) {
        const uint64_t v = uint64_t(r.itlNs[i]);
        for (int k = 0; k < 8; ++k)
            b.blob.push_back(static_cast<unsigned char>(v >> (8 * k)));
    }
    row.itlEnd = uint32_t(b.blob.size());
    b.rows.push_back(row);
    ++m_requests;
    if (b.rows.size() == kBatchRows || b.blob.size() > (size_t(1) << 30))
        push();
}

// Hands the current batch to the writer thread (started on the first batch: a small import never
// starts one).
void ServingSink::push()
{
    std::unique_ptr<Batch> next = m_writer.push(std::move(m_current));
    if (!next) {
        next = std::make_unique<Batch>();
        next->rows.reserve(kBatchRows);
    }
    m_current = std::move(next);
}

void ServingSink::quiesce()
{
    if (!m_writer.started())
        return; // nothing was handed over: the connection is this thread's
    if (!m_current->rows.empty() || !m_current->newLabels.empty())
        push();
    m_writer.drain();
}

void ServingSink::finish()
{
    if (m_finished)
        return;
    m_writer.finish();
    m_target->write(*m_current, m_sourceId); // what is left, on this thread
    m_current->clear();
    m_finished = true;
}

} // namespace plumb
