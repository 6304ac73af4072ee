// SPDX-License-Identifier: GPL-3.0-or-later
// String and args interning of a trace import (core/ingest/trace/stringinterner.h) and the
// StringPool that parallel imports share.
#include "ingest/trace/stringinterner.h"
#include "ingest/trace/stringpool.h"
#include "ingest/trace/tracewriter.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

class TestStringInterner : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_ws
            = std::make_unique<Workspace>(m_dir.filePath(QStringLiteral("w.plumb")), Workspace::Role::Writer);
        m_ws->db().exec("DELETE FROM string; DELETE FROM args");
        m_ws->db().exec(
            "INSERT INTO string(id, str) VALUES (3, 'old'); INSERT INTO args(id, json) VALUES (8, '{}')");
    }
    void cleanup() { m_ws.reset(); }

    // A string the workspace has keeps its id and is not written again; new ones get the next ids,
    // once each.
    void strings()
    {
        TraceWriter writer(m_ws->db(), 1);
        StringInterner strings(m_ws->db(), writer, nullptr);
        QCOMPARE(strings.intern("old"), int64_t(3));
        QCOMPARE(strings.intern("new"), int64_t(4));
        QCOMPARE(strings.intern("newer"), int64_t(5));
        QCOMPARE(strings.intern("new"), int64_t(4));
        QCOMPARE(strings.intern(""), int64_t(6));
        const auto &written = writer.batch().strings;
        QCOMPARE(written.size(), size_t(3));
        QCOMPARE(written[0].first, int64_t(4));
        QCOMPARE(written[0].second, std::string("new"));
        QCOMPARE(written[2].second, std::string());
    }

    // Empty args are no args; equal JSON shares a row; ids continue the workspace's.
    void args()
    {
        TraceWriter writer(m_ws->db(), 1);
        StringInterner strings(m_ws->db(), writer, nullptr);
        QCOMPARE(strings.internArgs(""), kNoValue);
        QCOMPARE(strings.internArgs("{}"), kNoValue);
        QCOMPARE(strings.internArgs(R"({"a":1})"), int64_t(9));
        QCOMPARE(strings.internArgs(R"({"a":2})"), int64_t(10));
        QCOMPARE(strings.internArgs(R"({"a":1})"), int64_t(9));
        QCOMPARE(writer.batch().args.size(), size_t(2));
    }

    // Two imports drawing from one pool agree on ids, and write only what the workspace lacks, once
    // per import.
    void pool()
    {
        StringPool pool(m_ws->db());
        TraceWriter writerA(m_ws->db(), 1);
        TraceWriter writerB(m_ws->db(), 2);
        StringInterner a(m_ws->db(), writerA, &pool);
        StringInterner b(m_ws->db(), writerB, &pool);
        const int64_t x = a.intern("x");
        QCOMPARE(b.intern("y"), x + 1);
        QCOMPARE(b.intern("x"), x);
        QCOMPARE(a.intern("old"), int64_t(3));
        QCOMPARE(b.intern("old"), int64_t(3));
        QCOMPARE(writerA.batch().strings.size(), size_t(1)); // x
        QCOMPARE(writerB.batch().strings.size(), size_t(2)); // y, x
        bool fresh = false;
        QCOMPARE(pool.intern("old", &fresh), int64_t(3));
        QVERIFY(!fresh);
        QCOMPARE(pool.intern("x", &fresh), x);
        QVERIFY(fresh);
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Workspace> m_ws;
};

QTEST_GUILESS_MAIN(TestStringInterner)
#include "tst_stringinterner.moc"
