// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace/tracewriter.h"

#include "store/sqlitedb.h"
#include "timeline/slicesummary.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <tuple>
#include <unordered_map>

namespace plumb {

namespace {

// Multi-row VALUES: fewer statement steps. 128 rows took 0.96x the CPU time of 32 inserting 1M slices
// in a standalone test (12 pairs); 128 x 13 parameters stay far below SQLite's limit of 32,766.
constexpr int kRowsPerInsert = 128;
constexpr int kSliceColumns = 13;
constexpr int kFirstNullable = 6; // cat_id .. args_id may be NULL
constexpr int kFlowColumns = 8;

std::string multiRowInsert(const char *head, int columns)
{
    std::string row = "(?";
    for (int c = 1; c < columns; ++c) {
        row += ",?";
    }
    row += ')';
    std::string sql = head;
    for (int r = 0; r < kRowsPerInsert; ++r) {
        sql += (r ? "," : "") + row;
    }
    return sql;
}

void bindNullable(SqliteStmt &st, int index, int64_t v)
{
    if (v == kNoValue) {
        st.bindNull(index);
    } else {
        st.bind(index, v);
    }
}

} // namespace

// Prepared once per import on the writer thread, which owns the connection during the load.
// OR FAIL on the multi-row INSERTs: a statement that may abort after writing some of its rows keeps a
// statement journal, a copy of every page it touches (14% of the writer's work on an Nsight import).
// FAIL keeps the rows written before a failure, and a failed import rolls its transaction back anyway.
struct TraceWriter::Statements {
    explicit Statements(SqliteDb &db)
        : db(db)
        , sliceOne(db,
              "INSERT INTO slice(track_id, ts, id, dur, depth, name_id, cat_id, corr, ext_id, seq_nr, "
              "ev_idx, rf_id, args_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")
        , counter(db, "INSERT INTO counter(track_id, ts, id, value) VALUES (?,?,?,?)")
        , flowMulti(db,
              multiRowInsert("INSERT OR FAIL INTO flow(id, trace_id, cat_id, flow_key, src_track, src_ts, "
                             "dst_track, dst_ts) VALUES ",
                  kFlowColumns))
        , flow(db,
              "INSERT INTO flow(id, trace_id, cat_id, flow_key, src_track, src_ts, dst_track, dst_ts) "
              "VALUES (?,?,?,?,?,?,?,?)")
        , str(db, "INSERT INTO string(id, str) VALUES (?, ?)")
        , args(db, "INSERT INTO args(id, json) VALUES (?, ?)")
        , lodTile(db, kInsertSliceLodSql)
        , corrTile(db,
              "INSERT OR IGNORE INTO slice_corr_tile(track_id, first_ts, last_ts, min_corr, max_corr) "
              "VALUES (?,?,?,?,?)")
    {
    }
    // The multi-row slice INSERT with NULL written into the SQL for the nullable columns that are NULL
    // in all of a chunk's rows (bit c: the c-th nullable column): fewer values to bind (four of
    // thirteen in most Nsight and XPlane rows). Prepared on first use; at most 2^7.
    SqliteStmt &sliceMulti(uint32_t nullMask)
    {
        auto &stmt = sliceMultiByMask[nullMask];
        if (!stmt) {
            static const char *const names[kSliceColumns] = { "track_id", "ts", "id", "dur", "depth",
                "name_id", "cat_id", "corr", "ext_id", "seq_nr", "ev_idx", "rf_id", "args_id" };
            std::string sql = "INSERT OR FAIL INTO slice(";
            std::string row = "(";
            for (int c = 0; c < kSliceColumns; ++c) {
                sql += c ? "," : "";
                sql += names[c];
                row += c ? "," : "";
                row += c >= kFirstNullable && (nullMask >> (c - kFirstNullable)) & 1 ? "NULL" : "?";
            }
            sql += ") VALUES ";
            row += ')';
            for (int r = 0; r < kRowsPerInsert; ++r) {
                sql += (r ? "," : "") + row;
            }
            stmt = std::make_unique<SqliteStmt>(db, sql);
        }
        return *stmt;
    }
    SqliteDb &db;
    std::unordered_map<uint32_t, std::unique_ptr<SqliteStmt>> sliceMultiByMask;
    SqliteStmt sliceOne, counter, flowMulti, flow, str, args, lodTile, corrTile;
};

TraceWriter::TraceWriter(SqliteDb &db, int64_t traceId)
    : m_db(db)
    , m_traceId(traceId)
    , m_current(std::make_unique<TraceBatch>())
    , m_writer(kMaxQueuedBatches, [this](TraceBatch &b) { write(b); })
{
}

TraceWriter::~TraceWriter()
{
    // Abandoned (error or cancel) when not finished: the caller rolls back, so queued rows need not
    // be written. Before any member goes: the writer thread uses them.
    m_writer.abandon();
}

void TraceWriter::sortSlices(std::vector<TraceBatch::SliceRow> &slices)
{
    // The trackers write each track's slices in (ts, id) order, interleaving the tracks: when that
    // holds, the rows only need grouping by track, in one pass that moves each 104-byte row once.
    // Ids are unique, so this is the order std::sort by (track, ts, id) gives.
    m_trackRuns.clear();
    m_trackIndex.clear();
    TrackRun *run = nullptr;
    for (size_t i = 0; i < slices.size(); ++i) {
        const TraceBatch::SliceRow &r = slices[i];
        if (!run || r.track != run->track) {
            const auto [it, added] = m_trackIndex.try_emplace(r.track, m_trackRuns.size());
            if (added) {
                m_trackRuns.push_back({ r.track, 0, 0 });
            }
            run = &m_trackRuns[it->second];
        }
        if (run->count > 0 && std::tie(slices[run->last].ts, slices[run->last].id) > std::tie(r.ts, r.id)) {
            std::sort(slices.begin(), slices.end(),
                [](const TraceBatch::SliceRow &a, const TraceBatch::SliceRow &b) {
                    return std::tie(a.track, a.ts, a.id) < std::tie(b.track, b.ts, b.id);
                });
            return;
        }
        ++run->count;
        run->last = i;
    }
    std::sort(m_trackRuns.begin(), m_trackRuns.end(),
        [](const TrackRun &a, const TrackRun &b) { return a.track < b.track; });
    size_t at = 0;
    for (TrackRun &t : m_trackRuns) {
        t.last = at; // from here on: where the track's next row goes
        m_trackIndex[t.track] = size_t(&t - m_trackRuns.data());
        at += t.count;
    }
    m_sortedSlices.resize(slices.size());
    run = nullptr;
    for (const TraceBatch::SliceRow &r : slices) {
        if (!run || r.track != run->track) {
            run = &m_trackRuns[m_trackIndex[r.track]];
        }
        m_sortedSlices[run->last++] = r;
    }
    slices.swap(m_sortedSlices);
}

void TraceWriter::push()
{
    // In key order, the writer appends to each track's run of the clustered slice table instead of
    // hopping between them (a thread and its CUDA API track alternate, for one): fewer b-tree seeks
    // and page splits on the writer thread, which is the slower one. Sorted here, on the producer.
    auto byKey = [](const TraceBatch::SliceRow &a, const TraceBatch::SliceRow &b) {
        return std::tie(a.track, a.ts, a.id) < std::tie(b.track, b.ts, b.id);
    };
    auto &slices = m_current->slices;
    if (!std::is_sorted(slices.begin(), slices.end(), byKey)) {
        sortSlices(slices);
    }
    std::unique_ptr<TraceBatch> next = m_writer.push(std::move(m_current));
    m_current = next ? std::move(next) : std::make_unique<TraceBatch>();
}

void TraceWriter::finish()
{
    m_writer.finish();
    m_statements.reset();
}

void TraceWriter::write(TraceBatch &b)
{
    if (!m_statements) {
        m_statements = std::make_unique<Statements>(m_db);
    }
    Statements &st = *m_statements;
    for (const auto &[id, s] : b.strings) {
        st.str.bind(1, id).bind(2, std::string_view(s)).run();
    }
    for (const auto &[id, s] : b.args) {
        st.args.bind(1, id).bind(2, std::string_view(s)).run();
    }
    for (const TraceBatch::LodTileRow &t : b.lodTiles) {
        st.lodTile.bind(1, t.track)
            .bind(2, t.level)
            .bind(3, t.tile)
            .bindBlob(4, t.data.data(), t.data.size())
            .run();
    }
    for (const auto &[track, t] : b.corrTiles) {
        st.corrTile.bind(1, track)
            .bind(2, t.firstTs)
            .bind(3, t.lastTs)
            .bind(4, t.minCorr)
            .bind(5, t.maxCorr)
            .run();
    }

    auto bindSlice = [](SqliteStmt &stmt, int base, const TraceBatch::SliceRow &r) {
        stmt.bind(base + 1, r.track).bind(base + 2, r.ts).bind(base + 3, r.id).bind(base + 4, r.dur);
        stmt.bind(base + 5, r.depth).bind(base + 6, r.name);
        bindNullable(stmt, base + 7, r.cat);
        bindNullable(stmt, base + 8, r.corr);
        bindNullable(stmt, base + 9, r.ext);
        bindNullable(stmt, base + 10, r.seq);
        bindNullable(stmt, base + 11, r.evIdx);
        bindNullable(stmt, base + 12, r.rfId);
        bindNullable(stmt, base + 13, r.args);
    };
    auto nullMask = [](const TraceBatch::SliceRow &r) {
        const int64_t nullable[] = { r.cat, r.corr, r.ext, r.seq, r.evIdx, r.rfId, r.args };
        uint32_t mask = 0;
        for (size_t c = 0; c < std::size(nullable); ++c) {
            mask |= uint32_t(nullable[c] == kNoValue) << c;
        }
        return mask;
    };
    size_t i = 0;
    const size_t n = b.slices.size();
    for (; i + kRowsPerInsert <= n; i += kRowsPerInsert) {
        uint32_t mask = (1u << (kSliceColumns - kFirstNullable)) - 1;
        for (int r = 0; r < kRowsPerInsert; ++r) {
            mask &= nullMask(b.slices[i + size_t(r)]);
        }
        SqliteStmt &stmt = st.sliceMulti(mask);
        int param = 0;
        for (int r = 0; r < kRowsPerInsert; ++r) {
            const TraceBatch::SliceRow &row = b.slices[i + size_t(r)];
            const int64_t values[kSliceColumns] = { row.track, row.ts, row.id, row.dur, row.depth, row.name,
                row.cat, row.corr, row.ext, row.seq, row.evIdx, row.rfId, row.args };
            for (int c = 0; c < kSliceColumns; ++c) {
                if (c < kFirstNullable) {
                    stmt.bind(++param, values[c]);
                } else if (!((mask >> (c - kFirstNullable)) & 1)) {
                    bindNullable(stmt, ++param, values[c]);
                }
            }
        }
        stmt.step();
        stmt.resetKeepBindings();
    }
    for (; i < n; ++i) {
        bindSlice(st.sliceOne, 0, b.slices[i]);
        st.sliceOne.step();
        st.sliceOne.resetKeepBindings();
    }
    for (const auto &c : b.counters) {
        st.counter.bind(1, c.track).bind(2, c.ts).bind(3, c.id).bind(4, c.value).run();
    }
    auto bindFlow = [this](SqliteStmt &stmt, int base, const TraceBatch::FlowRow &f) {
        stmt.bind(base + 1, f.id).bind(base + 2, m_traceId);
        bindNullable(stmt, base + 3, f.cat);
        bindNullable(stmt, base + 4, f.key);
        bindNullable(stmt, base + 5, f.srcTrack);
        bindNullable(stmt, base + 6, f.srcTs);
        bindNullable(stmt, base + 7, f.dstTrack);
        bindNullable(stmt, base + 8, f.dstTs);
    };
    const size_t nf = b.flows.size();
    for (i = 0; i + kRowsPerInsert <= nf; i += kRowsPerInsert) {
        for (int r = 0; r < kRowsPerInsert; ++r) {
            bindFlow(st.flowMulti, r * kFlowColumns, b.flows[i + size_t(r)]);
        }
        st.flowMulti.step();
        st.flowMulti.resetKeepBindings();
    }
    for (; i < nf; ++i) {
        bindFlow(st.flow, 0, b.flows[i]);
        st.flow.step();
        st.flow.resetKeepBindings();
    }
}

} // namespace plumb
