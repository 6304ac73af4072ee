// SPDX-License-Identifier: GPL-3.0-or-later
// The writer of a trace import (core/ingest/trace/tracewriter.h): batches handed over in any order
// come out as rows, NULL where a value is kNoValue, in the multi-row INSERTs and in the rest.
#include "ingest/trace/tracewriter.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

class TestTraceWriter : public QObject {
    Q_OBJECT

private slots:
    void init() { QVERIFY(m_dir.isValid()); }

    // 300 slices (two multi-row chunks of 128 and a tail of 44), each nullable column NULL in some
    // rows and not in others, handed over in reverse order: every value comes back where it went.
    void slicesRoundTrip()
    {
        Workspace ws(m_dir.filePath(QStringLiteral("w.plumb")), Workspace::Role::Writer);
        constexpr int64_t n = 300;
        {
            TraceWriter writer(ws.db(), 1);
            for (int64_t i = n - 1; i >= 0; --i) {
                auto v = [&](int64_t col) { return (i + col) % 3 == 0 ? kNoValue : i * 10 + col; };
                writer.batch().slices.push_back(
                    { 7, 1000 + i, i + 1, 5, i % 4, 42, v(0), v(1), v(2), v(3), v(4), v(5), v(6) });
            }
            writer.push();
            writer.finish();
        }
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM slice"), n);
        SqliteStmt st(ws.db(),
            "SELECT ts, id, dur, depth, name_id, cat_id, corr, ext_id, seq_nr, ev_idx, rf_id, args_id "
            "FROM slice WHERE track_id = 7 ORDER BY id");
        int64_t i = 0;
        while (st.step()) {
            QCOMPARE(st.columnInt(0), 1000 + i);
            QCOMPARE(st.columnInt(1), i + 1);
            QCOMPARE(st.columnInt(2), int64_t(5));
            QCOMPARE(st.columnInt(3), i % 4);
            QCOMPARE(st.columnInt(4), int64_t(42));
            for (int col = 0; col < 7; ++col) {
                const bool null = (i + col) % 3 == 0;
                QCOMPARE(st.columnIsNull(5 + col), null);
                if (!null) {
                    QCOMPARE(st.columnInt(5 + col), i * 10 + col);
                }
            }
            ++i;
        }
        QCOMPARE(i, n);
    }

    // Batches whose tracks interleave, each track in time order (grouped by track in one pass) or
    // not (sorted whole): every row is written once, with its own values.
    void slicesOfInterleavedTracks()
    {
        Workspace ws(m_dir.filePath(QStringLiteral("i.plumb")), Workspace::Role::Writer);
        constexpr int64_t n = 3000;
        {
            TraceWriter writer(ws.db(), 1);
            for (int64_t i = 0; i < n; ++i) {
                const int64_t track = 9 - (i * 7 % 5); // 9, 7, 5, 8, 6, 9, ...: runs of one row
                writer.batch().slices.push_back({ track, 1000 + i, i + 1, i, 0, track, kNoValue, kNoValue,
                    kNoValue, kNoValue, kNoValue, kNoValue, kNoValue });
            }
            writer.push();
            for (int64_t i = 0; i < n; ++i) { // tracks in runs of 100, times falling within each track
                writer.batch().slices.push_back({ 20 + (i / 100) % 3, 50000 - i, n + i + 1, i, 0, 1, kNoValue,
                    kNoValue, kNoValue, kNoValue, kNoValue, kNoValue, kNoValue });
            }
            writer.push();
            writer.finish();
        }
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM slice"), 2 * n);
        QCOMPARE(ws.db().queryInt("SELECT count(DISTINCT id) FROM slice"), 2 * n);
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM slice WHERE id <= 3000 AND (ts != 999 + id OR dur != "
                                  "id - 1 OR name_id != track_id OR track_id != 9 - ((id - 1) * 7 % 5))"),
            int64_t(0));
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM slice WHERE id > 3000 AND (ts != 50000 - (id - 3001) "
                                  "OR track_id != 20 + ((id - 3001) / 100) % 3)"),
            int64_t(0));
    }

    // Flows (multi-row and single), counters, strings and args, with the trace id on every flow.
    void otherRows()
    {
        Workspace ws(m_dir.filePath(QStringLiteral("o.plumb")), Workspace::Role::Writer);
        {
            TraceWriter writer(ws.db(), 9);
            for (int64_t i = 0; i < 130; ++i) {
                writer.batch().flows.push_back({ i + 1, 3, i, 1, 10 * i, i == 5 ? kNoValue : 2, 10 * i + 1 });
            }
            writer.batch().counters.push_back({ 4, 100, 1, 2.5 });
            writer.batch().strings.emplace_back(77, "kernel");
            writer.batch().args.emplace_back(5, R"({"a":1})");
            writer.flush();
            writer.flush(); // nothing left: no empty batch
            writer.finish();
        }
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM flow WHERE trace_id = 9"), int64_t(130));
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM flow WHERE dst_track IS NULL"), int64_t(1));
        QCOMPARE(ws.db().queryInt("SELECT src_ts FROM flow WHERE id = 130"), int64_t(1290));
        QCOMPARE(
            ws.db().queryInt("SELECT count(*) FROM counter WHERE track_id = 4 AND value = 2.5"), int64_t(1));
        QCOMPARE(ws.db().queryInt("SELECT id FROM string WHERE str = 'kernel'"), int64_t(77));
        QCOMPARE(ws.db().queryInt("SELECT id FROM args WHERE json = '{\"a\":1}'"), int64_t(5));
    }

    // A full batch goes at kBatchRows rows, not before.
    void pushIfFull()
    {
        Workspace ws(m_dir.filePath(QStringLiteral("p.plumb")), Workspace::Role::Writer);
        TraceWriter writer(ws.db(), 1);
        for (size_t i = 0; i + 1 < TraceWriter::kBatchRows; ++i) {
            writer.batch().counters.push_back({ 1, int64_t(i), int64_t(i + 1), 0.0 });
            writer.pushIfFull();
        }
        QCOMPARE(writer.batch().counters.size(), TraceWriter::kBatchRows - 1);
        writer.batch().counters.push_back({ 1, 0, int64_t(TraceWriter::kBatchRows), 0.0 });
        writer.pushIfFull();
        QVERIFY(writer.batch().empty());
        writer.finish();
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM counter"), int64_t(TraceWriter::kBatchRows));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestTraceWriter)
#include "tst_tracewriter.moc"
