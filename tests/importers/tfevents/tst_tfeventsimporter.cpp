// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for the TensorBoard event-file importer and the experiment-log tables it writes through.
//
// The generated fixtures come from data/gen_fixtures.py, which also writes what the importer must
// store (NAME.points.csv, NAME.histograms.csv) from what it wrote: those are compared exactly and
// never rewritten. NAME.other.csv (diagnostics, runs, series, params) is a golden of the usual kind:
// PLUMB_UPDATE_GOLDENS=1 rewrites it, then review the diff. The real logs in ../shared/data/tfevents
// are checked against data/tfevents_reader.py, an independent reader (data/real/*.csv).

#include "builtinimporters.h"
#include "goldens.h"
#include "importhelpers.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "ingest/inputfile.h"
#include "store/experimentreader.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "tfevents.pb.h"
#include "tfevents/crc32c.h"

#include <QBuffer>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace plumb;

namespace {

QString readText(const QString &path)
{
    QFile in(path);
    if (!in.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(in.readAll());
}

QString fixture(const QString &name)
{
    return QStringLiteral(PLUMB_TEST_DATA "/") + name;
}

QString realDir()
{
    return QStringLiteral(PLUMB_SHARED_DATA "/tfevents");
}

QString firstText(SqliteDb &db, const char *sql)
{
    SqliteStmt st(db, sql);
    return st.step() ? st.columnText(0) : QString();
}

// The real folder's files whose name matches `pattern`, in path order.
QStringList realFiles(const QString &pattern)
{
    QStringList files;
    QDirIterator it(realDir(), { pattern }, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    files.sort();
    return files;
}

QString number(double v)
{
    if (std::isnan(v))
        return {};
    return QString::asprintf("%.9g", v);
}

// Every metric point, in the form of gen_fixtures.py's NAME.points.csv.
QString pointsCsv(SqliteDb &db)
{
    SqliteStmt st(db,
        "SELECT r.name, s.str, m.segment, m.step, m.dup, m.wall_time_ns, m.value FROM metric m "
        "JOIN run r ON r.id = m.run_id JOIN string s ON s.id = m.key_id "
        "ORDER BY r.name, s.str, m.segment, m.step, m.dup");
    QString out = QStringLiteral("run,tag,segment,step,dup,wall_time_ns,value\n");
    while (st.step())
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7\n")
                   .arg(st.columnText(0), st.columnText(1))
                   .arg(st.columnInt(2))
                   .arg(st.columnInt(3))
                   .arg(st.columnInt(4))
                   .arg(st.columnInt(5))
                   .arg(st.columnIsNull(6) ? QString() : number(st.columnDouble(6)));
    return out;
}

// Every histogram with its buckets decoded from the blob, as NAME.histograms.csv.
QString histogramsCsv(SqliteDb &db)
{
    SqliteStmt st(db,
        "SELECT r.name, s.str, h.segment, h.step, h.dup, h.bucket_count, h.buckets, h.min, h.max, "
        "h.num, h.sum, h.sum_squares FROM histogram h JOIN run r ON r.id = h.run_id "
        "JOIN string s ON s.id = h.key_id ORDER BY r.name, s.str, h.segment, h.step, h.dup");
    QString out
        = QStringLiteral("run,tag,segment,step,dup,bucket_count,buckets,min,max,num,sum,sum_squares\n");
    while (st.step()) {
        const std::string_view blob = st.columnBlob(6);
        const int64_t k = st.columnInt(5);
        QStringList buckets;
        if (blob.size() != size_t(k) * 3 * sizeof(double))
            buckets << QStringLiteral("BLOB SIZE %1").arg(blob.size());
        else
            for (int64_t i = 0; i < k; ++i) {
                double v[3];
                std::memcpy(v, blob.data() + i * 3 * sizeof(double), sizeof v);
                buckets << number(v[0]) + QLatin1Char(':') + number(v[1]) + QLatin1Char(':') + number(v[2]);
            }
        QStringList stats;
        for (int c = 7; c < 12; ++c)
            stats << (st.columnIsNull(c) ? QString() : number(st.columnDouble(c)));
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8\n")
                   .arg(st.columnText(0), st.columnText(1))
                   .arg(st.columnInt(2))
                   .arg(st.columnInt(3))
                   .arg(st.columnInt(4))
                   .arg(k)
                   .arg(buckets.join(QLatin1Char(';')), stats.join(QLatin1Char(',')));
    }
    return out;
}

// What is not a point: diagnostics, runs (paths relative to the test data), series, params, sources.
const char *kOtherSql
    = "SELECT 'diagnostic' AS what, d.code AS a, d.count AS b, d.severity AS c, d.location AS d, d.message "
      "AS e "
      "FROM diagnostic d "
      "UNION ALL SELECT 'source', s.name, s.event_count, s.skipped_count, s.status, s.format FROM source s "
      "UNION ALL SELECT 'run', r.name, coalesce(p.name, ''), r.status, r.group_name, "
      "  (r.start_ns IS NOT NULL) || ' ' || coalesce(r.end_ns - r.start_ns, '') || ' ' || "
      "coalesce(r.metadata, '') "
      "  FROM run r LEFT JOIN run p ON p.id = r.parent_run_id "
      "UNION ALL SELECT 'series', r.name || ' ' || s.str, m.kind || ' ' || m.segment, m.points, "
      "  m.first_step || '..' || m.last_step || ' ' || (m.last_wall_ns - m.first_wall_ns), "
      "  iif(m.min_value IS NULL, '-', printf('%.9g', m.min_value)) || ' ' || "
      "  iif(m.max_value IS NULL, '-', printf('%.9g', m.max_value)) || ' ' || "
      "  iif(m.last_value IS NULL, '-', printf('%.9g', m.last_value)) "
      "  FROM metric_series m JOIN run r ON r.id = m.run_id JOIN string s ON s.id = m.key_id "
      "UNION ALL SELECT 'param', r.name, p.key, p.value, p.kind, NULL FROM param p JOIN run r ON r.id = "
      "p.run_id "
      "ORDER BY 1, 2, 3, 4, 5";

// The real logs, in the forms tfevents_reader.py prints.
const char *kRealSeriesSql
    = "SELECT r.name AS run, s.str AS tag, m.kind, max(m.segment) + 1 AS segments, sum(m.points) AS points, "
      "min(m.first_step) AS first_step, max(m.last_step) AS last_step, "
      "CASE WHEN m.kind = 'scalar' THEN printf('%.9g', min(m.min_value)) ELSE '' END AS min, "
      "CASE WHEN m.kind = 'scalar' THEN printf('%.9g', max(m.max_value)) ELSE '' END AS max, "
      "CASE WHEN m.kind = 'scalar' THEN (SELECT printf('%.6f', total(v)) FROM (SELECT x.value AS v FROM "
      "metric x "
      "  WHERE x.run_id = m.run_id AND x.key_id = m.key_id ORDER BY x.segment, x.step, x.dup)) ELSE '' END "
      "AS sum "
      "FROM metric_series m JOIN run r ON r.id = m.run_id JOIN string s ON s.id = m.key_id "
      "GROUP BY r.name, s.str, m.kind ORDER BY r.name, s.str, m.kind";
const char *kRealParamsSql
    = "SELECT run, key, value, kind FROM ("
      "SELECT r.name AS run, p.key, p.value, p.kind FROM param p JOIN run r ON r.id = p.run_id "
      "UNION ALL SELECT r.name, '#status', r.status, '' FROM run r WHERE r.status IS NOT NULL "
      "UNION ALL SELECT r.name, '#group', r.group_name, '' FROM run r WHERE r.group_name IS NOT NULL) "
      "ORDER BY run, key";

// A small event file written with the project's own message classes (the .proto round trip).
class EventWriter {
public:
    enum Mode { Create, Append };
    explicit EventWriter(const QString &path, Mode mode = Create)
        : m_file(path)
    {
        if (!m_file.open(mode == Append ? QIODevice::Append : QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        if (mode == Append)
            return;
        tfevents::Event e;
        e.set_wall_time(1700000000.0);
        e.set_file_version("brain.Event:2");
        write(e);
    }
    void scalar(const std::string &tag, int64_t step, float value)
    {
        tfevents::Event e;
        e.set_wall_time(1700000000.0 + double(step));
        e.set_step(step);
        auto *v = e.mutable_summary()->add_value();
        v->set_tag(tag);
        v->set_simple_value(value);
        write(e);
    }
    // A TF2 scalar: a float tensor; the plugin is named on the tag's first value only.
    void tensorScalar(const std::string &tag, int64_t step, float value, bool first)
    {
        tfevents::Event e;
        e.set_wall_time(1700000000.0 + double(step));
        e.set_step(step);
        auto *v = e.mutable_summary()->add_value();
        v->set_tag(tag);
        if (first)
            v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("scalars");
        v->mutable_tensor()->set_dtype(tfevents::DT_FLOAT);
        v->mutable_tensor()->add_float_val(value);
        write(e);
    }
    // The first `bytes` of a record, as a writer leaves them when it is stopped mid-record.
    void partialScalar(const std::string &tag, int64_t step, qint64 bytes)
    {
        QFile *real = &m_file;
        QBuffer buf;
        buf.open(QIODevice::WriteOnly);
        m_out = &buf;
        scalar(tag, step, 0);
        m_out = real;
        m_file.write(buf.data().left(bytes));
    }
    void write(const tfevents::Event &e)
    {
        const std::string data = e.SerializeAsString();
        char header[12];
        const uint64_t length = data.size();
        std::memcpy(header, &length, 8);
        const uint32_t lengthCrc = maskCrc32c(crc32c(header, 8));
        std::memcpy(header + 8, &lengthCrc, 4);
        const uint32_t dataCrc = maskCrc32c(crc32c(data.data(), data.size()));
        m_out->write(header, 12);
        m_out->write(data.data(), qint64(data.size()));
        m_out->write(reinterpret_cast<const char *>(&dataCrc), 4);
    }

private:
    QFile m_file;
    QIODevice *m_out = &m_file;
};

} // namespace

class TestTfEventsImporter : public QObject {
    Q_OBJECT

private:
    ImporterRegistry m_registry;
    QTemporaryDir m_tmp;
    int m_wsCounter = 0;

    QString freshWorkspace() { return m_tmp.filePath(QStringLiteral("ws%1.plumb").arg(++m_wsCounter)); }

    std::vector<FileImportResult> import(const QString &ws, const QStringList &paths)
    {
        ImportRunner runner(m_registry, ws);
        return runner.run(paths);
    }

    // Imports every file under `folder`; fails the test unless each was imported.
    bool importAll(const QString &ws, const QString &folder)
    {
        for (const auto &r : import(ws, { folder })) {
            if (r.status != FileImportResult::Status::Imported) {
                qWarning().noquote() << r.path << statusName(r.status) << r.message;
                return false;
            }
        }
        return true;
    }

private slots:
    void initTestCase()
    {
        registerBuiltinImporters(m_registry);
        QVERIFY(m_tmp.isValid());
    }

    // The published test vectors of the checksum and of TFRecord's masking.
    void crcVectors()
    {
        QCOMPARE(crc32c("123456789", 9), 0xE3069283u);
        QCOMPARE(crc32cPortable("123456789", 9), 0xE3069283u);
        const uint64_t length = 24;
        char le[8];
        std::memcpy(le, &length, 8);
        QCOMPARE(maskCrc32c(crc32c(le, 8)), 0x224B7FA3u);
        QCOMPARE(crc32c("", 0), 0u);
        // The hardware and table versions agree at every length and alignment, and in pieces.
        QByteArray data(4099, Qt::Uninitialized);
        QRandomGenerator rng(7);
        for (auto &c : data)
            c = char(rng.bounded(256));
        for (int offset = 0; offset < 8; ++offset)
            for (int n : { 0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4091 }) {
                const char *p = data.constData() + offset;
                QCOMPARE(crc32c(p, size_t(n)), crc32cPortable(p, size_t(n)));
                QCOMPARE(
                    crc32c(p + n / 2, size_t(n - n / 2), crc32c(p, size_t(n / 2))), crc32c(p, size_t(n)));
            }
    }

    void sniff_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("claimedBy");
        const QString ev = QStringLiteral("events.out.tfevents.1700000000.gen.1");
        QTest::newRow("tf2") << QStringLiteral("tf2/") + ev << ev << "tfevents";
        // By content: framing with a valid CRC around an Event with a file version.
        QTest::newRow("tf2-renamed") << QStringLiteral("tf2/") + ev << "log.bin"
                                     << "tfevents";
        QTest::newRow("corrupt") << QStringLiteral("corrupt/") + ev << ev << "tfevents";
        // Named like an event file but not one: claimed, so that read() says what it is not.
        QTest::newRow("text-named") << "notevents/events.out.tfevents.1700000000.gen.txt"
                                    << "events.out.tfevents.1700000000.gen.txt"
                                    << "tfevents";
        QTest::newRow("examples-named") << "notevents/events.out.tfevents.1700000000.gen.tfrecord"
                                        << "events.out.tfevents.1700000000.gen.tfrecord"
                                        << "tfevents";
        // A TFRecord of something else under another name is not an experiment log.
        QTest::newRow("dataset") << "notevents/dataset.tfrecord"
                                 << "dataset.tfrecord"
                                 << "";
        QTest::newRow("script") << "gen_fixtures.py"
                                << "gen_fixtures.py"
                                << "";
        // A metric table is the tabular importer's, whatever it is named.
        QTest::newRow("csv") << "tf2.points.csv"
                             << "tf2.points.csv"
                             << "tabular";
        QTest::newRow("csv-named") << "tf2.points.csv"
                                   << "events.out.tfevents.1700000000.gen.csv"
                                   << "tabular";
    }
    void sniff()
    {
        QFETCH(QString, file);
        QFETCH(QString, name);
        QFETCH(QString, claimedBy);
        const QByteArray head = InputFile::peek(fixture(file), 65536);
        const Importer *importer = m_registry.find(head, name);
        QCOMPARE(importer ? importer->id() : QString(), claimedBy);
    }

    void golden_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *name : { "tf2", "legacy", "restart", "corrupt", "badheader", "hparams" })
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void golden()
    {
        QFETCH(QString, name);
        const QString ws = freshWorkspace();
        QVERIFY(importAll(ws, fixture(name)));
        Workspace w(ws, Workspace::Role::Reader);
        const QString points = pointsCsv(w.db());
        const QString expectedPoints = readText(fixture(name + QStringLiteral(".points.csv")));
        if (points != expectedPoints) {
            qWarning().noquote() << "actual:\n"
                                 << points << "\nexpected (gen_fixtures.py):\n"
                                 << expectedPoints;
            QFAIL("metric points differ from what gen_fixtures.py wrote");
        }
        const QString histograms = histogramsCsv(w.db());
        const QString expectedHistograms = readText(fixture(name + QStringLiteral(".histograms.csv")));
        if (histograms != expectedHistograms) {
            qWarning().noquote() << "actual:\n"
                                 << histograms << "\nexpected (gen_fixtures.py):\n"
                                 << expectedHistograms;
            QFAIL("histograms differ from what gen_fixtures.py wrote");
        }
        compareGolden(csvOf(w.db(), kOtherSql), fixture(name + QStringLiteral(".other.csv")));
    }

    // A restart: both segments kept; what TensorBoard shows is, at each step, the latest segment
    // that reached it (a point is superseded when a later segment starts at or before its step).
    void restartShowsLatestSegment()
    {
        const QString ws = freshWorkspace();
        QVERIFY(importAll(ws, fixture(QStringLiteral("restart"))));
        Workspace w(ws, Workspace::Role::Reader);
        SqliteStmt st(w.db(),
            "SELECT group_concat(m.step || '=' || m.value, ' ') FROM ("
            "SELECT m.* FROM metric m JOIN string s ON s.id = m.key_id WHERE s.str = 'loss' "
            "AND NOT EXISTS (SELECT 1 FROM metric_series later WHERE later.run_id = m.run_id "
            "  AND later.key_id = m.key_id AND later.kind = 'scalar' AND later.segment > m.segment "
            "  AND later.first_step <= m.step) ORDER BY m.step, m.segment, m.dup) m");
        QVERIFY(st.step());
        QCOMPARE(
            st.columnText(0), QStringLiteral("0=0.0 1=1.0 2=2.0 3=100.0 4=101.0 5=102.0 5=103.0 6=104.0"));
        ExperimentReader reader(w);
        const auto runs = reader.runs();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].restarts, 2); // loss restarted twice (acc once)
        QCOMPARE(runs[0].scalarTags, 2);
        QCOMPARE(runs[0].scalarPoints, 16 + 16 + 5);

        // The same through the series summaries and points the experiment views read.
        const auto series = reader.series({ runs[0].id });
        QCOMPARE(int(series.size()), 2);
        const auto loss = std::find_if(series.begin(), series.end(),
            [](const SeriesSummary &s) { return s.key == QLatin1String("loss"); });
        QVERIFY(loss != series.end());
        QCOMPARE(loss->segments, 3);
        QCOMPARE(loss->lastStep, 6);
        QCOMPARE(loss->lastValue, 104.0);
        QCOMPARE(loss->minValue, 0.0);
        QCOMPARE(loss->maxValue, 104.0);
        const auto points = reader.scalarPoints(runs[0].id, loss->keyId);
        QCOMPARE(int64_t(points.size()), loss->points);
        QCOMPARE(points.back().segment, 2);
        QCOMPARE(points.back().value, 104.0);
        QVERIFY(reader.series({ runs[0].id + 1000 }).empty());
    }

    // A trial and its sub-runs are linked whichever is imported first.
    void trialLinksSubRunsInEitherOrder()
    {
        const QString ws = freshWorkspace();
        const QString trial = fixture(QStringLiteral("hparams/trial_a"));
        QVERIFY(importAll(ws, trial + QStringLiteral("/train")));
        QVERIFY(importAll(ws, trial + QStringLiteral("/events.out.tfevents.1700000000.gen.1")));
        QVERIFY(importAll(ws, trial + QStringLiteral("/validation")));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM run r JOIN run p ON p.id = r.parent_run_id "
                                 "WHERE p.name = 'hparams/trial_a'"),
            2);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM run WHERE parent_run_id IS NULL"), 1);
    }

    void failuresLeaveNothing_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("text") << "notevents/events.out.tfevents.1700000000.gen.txt"
                              << int(FileImportResult::Status::Failed) << "is not a TensorBoard event file";
        QTest::newRow("examples") << "notevents/events.out.tfevents.1700000000.gen.tfrecord"
                                  << int(FileImportResult::Status::Failed)
                                  << "TFRecord file but not of TensorBoard events";
        QTest::newRow("short") << "notevents/events.out.tfevents.1700000000.gen.short"
                               << int(FileImportResult::Status::Failed) << "ends before its first record";
        QTest::newRow("dataset") << "notevents/dataset.tfrecord"
                                 << int(FileImportResult::Status::Unrecognised) << "no importer";
    }
    void failuresLeaveNothing()
    {
        QFETCH(QString, file);
        QFETCH(int, status);
        QFETCH(QString, messagePart);
        const QString ws = freshWorkspace();
        const auto results = import(ws, { fixture(file) });
        QCOMPARE(results.size(), size_t(1));
        const auto &r = results.front();
        QCOMPARE(int(r.status), status);
        QVERIFY2(r.message.contains(messagePart), qPrintable(r.message));
        if (r.status == FileImportResult::Status::Failed)
            QVERIFY2(r.message.contains(QFileInfo(file).fileName()), qPrintable(r.message));
        Workspace w(ws, Workspace::Role::Reader);
        for (const char *table :
            { "source", "run", "metric", "histogram", "metric_series", "param", "string", "diagnostic" })
            QCOMPARE(w.db().queryInt(("SELECT count(*) FROM " + std::string(table)).c_str()), 0);
    }

    void reimportIsNoop()
    {
        const QString ws = freshWorkspace();
        QVERIFY(importAll(ws, fixture(QStringLiteral("tf2"))));
        const QString before = tableCounts(ws);
        const auto again = import(ws, { fixture(QStringLiteral("tf2")) });
        QCOMPARE(int(again.front().status), int(FileImportResult::Status::AlreadyImported));
        QCOMPARE(tableCounts(ws), before);
    }

    // Live mode's reading: an event file that grows is imported again from where the last import
    // stopped (an incomplete record at the end included), each point once, the TF2 scalar's plugin
    // (named on its first value only) remembered, and a file replaced under the same name read
    // from its start.
    void grownFileContinues()
    {
        const QString ws = freshWorkspace();
        const QString dir = m_tmp.filePath(QStringLiteral("live/run1"));
        QVERIFY(QDir().mkpath(dir));
        const QString path = dir + QStringLiteral("/events.out.tfevents.1700000000.host");
        {
            EventWriter out(path);
            for (int s = 0; s < 10; ++s) {
                out.scalar("loss", s, float(s));
                out.tensorScalar("lr", s, 0.5f, s == 0);
            }
            out.partialScalar("loss", 10, 20);
        }
        auto r = import(ws, { path });
        QCOMPARE(int(r.front().status), int(FileImportResult::Status::Imported));
        const qint64 firstSize = QFileInfo(path).size();

        r = import(ws, { path }); // nothing new
        QCOMPARE(int(r.front().status), int(FileImportResult::Status::AlreadyImported));
        QVERIFY2(
            r.front().message.contains(QLatin1String("nothing appended")), qPrintable(r.front().message));

        {
            // The writer finishes the record it was writing, then goes on.
            QFile f(path);
            QVERIFY(f.resize(firstSize - 20));
            EventWriter out(path, EventWriter::Append);
            for (int s = 10; s < 15; ++s) {
                out.scalar("loss", s, float(s));
                out.tensorScalar("lr", s, 0.25f, false);
            }
        }
        r = import(ws, { path });
        QCOMPARE(int(r.front().status), int(FileImportResult::Status::Imported));
        QVERIFY2(r.front().message.contains(QLatin1String("appended since source 1")),
            qPrintable(r.front().message));
        QCOMPARE(r.front().records, 10);
        {
            Workspace w(ws, Workspace::Role::Reader);
            QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric"), 30);
            QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric WHERE dup > 0 OR segment > 0"), 0);
            QCOMPARE(w.db().queryInt("SELECT count(DISTINCT run_id) FROM metric"), 1);
            QCOMPARE(w.db().queryInt("SELECT continues_source_id FROM source WHERE id = 2"), 1);
            QCOMPARE(
                w.db().queryInt("SELECT resume_offset FROM source WHERE id = 2"), QFileInfo(path).size());
            QCOMPARE(
                w.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'scalar-without-plugin'"), 0);
        }

        // The same name, other contents: a new file from its start (a new source, not a continuation).
        QVERIFY(QFile::remove(path));
        {
            EventWriter out(path);
            for (int s = 0; s < 40; ++s)
                out.scalar("acc", s, 1.0f);
        }
        r = import(ws, { path });
        QCOMPARE(int(r.front().status), int(FileImportResult::Status::Imported));
        QVERIFY(!r.front().message.contains(QLatin1String("appended")));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt(
                     "SELECT count(*) FROM metric m JOIN string s ON s.id = m.key_id WHERE s.str = 'acc'"),
            40);
        QVERIFY(w.db().queryInt("SELECT continues_source_id IS NULL FROM source WHERE id = 3"));
    }

    // More points than a batch, a tag first seen while the writer thread holds the connection, and
    // tags shared with a trace's strings: one string row each, the trace's.
    void largeFileAndSharedStrings()
    {
        const QString ws = freshWorkspace();
        const QString trace = m_tmp.filePath(QStringLiteral("trace.json"));
        {
            QFile f(trace);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(
                R"({"traceEvents": [{"ph": "X", "name": "late", "pid": 1, "tid": 1, "ts": 1, "dur": 1}]})");
        }
        QCOMPARE(int(import(ws, { trace }).front().status), int(FileImportResult::Status::Imported));
        QDir().mkpath(m_tmp.filePath(QStringLiteral("big")));
        const QString path = m_tmp.filePath(QStringLiteral("big/events.out.tfevents.1.test"));
        constexpr int kSteps = 50000;
        {
            EventWriter out(path);
            for (int step = 0; step < kSteps; ++step) {
                out.scalar("early", step, float(step));
                if (step >= kSteps / 2)
                    out.scalar("late", step, float(-step));
            }
        }
        QVERIFY(importAll(ws, path));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric"), kSteps + kSteps / 2);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM string WHERE str = 'late'"), 1);
        QCOMPARE(w.db().queryInt(
                     "SELECT count(*) FROM metric m JOIN string s ON s.id = m.key_id WHERE s.str = 'late' "
                     "AND m.value = -m.step"),
            kSteps / 2);
        QCOMPARE(w.db().queryInt("SELECT sum(points) FROM metric_series"), kSteps + kSteps / 2);
        QCOMPARE(w.db().queryInt("SELECT event_count FROM source WHERE format = 'tfevents'"),
            1 + kSteps + kSteps / 2);
    }

    // A file with nothing Plumb imports (TensorFlow's *.profile-empty marker) adds no run; a file
    // whose only histogram is empty stores it (an empty blob, not NULL).
    void edgesOfEmptiness()
    {
        const QString ws = freshWorkspace();
        QDir().mkpath(m_tmp.filePath(QStringLiteral("empty/a")));
        QDir().mkpath(m_tmp.filePath(QStringLiteral("empty/b")));
        {
            EventWriter marker(
                m_tmp.filePath(QStringLiteral("empty/a/events.out.tfevents.1.host.profile-empty")));
        }
        {
            EventWriter out(m_tmp.filePath(QStringLiteral("empty/b/events.out.tfevents.1.host")));
            tfevents::Event e;
            e.set_wall_time(1700000001.0);
            e.set_step(7);
            auto *v = e.mutable_summary()->add_value();
            v->set_tag("weights");
            v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("histograms");
            auto *t = v->mutable_tensor();
            t->set_dtype(tfevents::DT_DOUBLE);
            t->mutable_tensor_shape()->add_dim()->set_size(0);
            t->mutable_tensor_shape()->add_dim()->set_size(3);
            out.write(e);
        }
        QVERIFY(importAll(ws, m_tmp.filePath(QStringLiteral("empty"))));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM source"), 2);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM run"), 1);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM histogram WHERE step = 7 AND bucket_count = 0 "
                                 "AND typeof(buckets) = 'blob' AND length(buckets) = 0"),
            1);
    }

    // A workspace of schema 5 (before experiment logs) migrates and keeps what it held.
    void migratesFromVersion5()
    {
        const QString path = freshWorkspace();
        {
            SqliteDb db = createWorkspaceAtSchema(path, 5);
            db.exec("INSERT INTO run(key, name, created_at_ns) VALUES ('source:1', 'old trace run', 1)");
        }
        {
            Workspace ws(path, Workspace::Role::Writer);
            QCOMPARE(ws.schemaVersion(), Workspace::currentSchemaVersion());
            QCOMPARE(Workspace::currentSchemaVersion(), 15);
            QCOMPARE(ws.db().queryInt(
                         "SELECT count(*) FROM pragma_table_info('source') WHERE name = 'resume_offset'"),
                1);
            for (const char *table : { "param", "metric", "histogram", "metric_series" })
                QCOMPARE(
                    ws.db().queryInt(("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '"
                        + std::string(table) + "'")
                                         .c_str()),
                    1);
            QCOMPARE(
                ws.db().queryInt("SELECT count(*) FROM run WHERE name = 'old trace run' AND path IS NULL "
                                 "AND status IS NULL"),
                1);
        }
        // And takes experiment logs afterwards.
        QVERIFY(importAll(path, fixture(QStringLiteral("legacy"))));
        Workspace ws(path, Workspace::Role::Reader);
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM metric"), 3);
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM run"), 2);
    }

    // The real logs: per-series counts, steps, values and sums, params and statuses, histograms and
    // per-file record counts, all as tfevents_reader.py reads them.
    void realLogs()
    {
        if (!QFileInfo::exists(realDir()))
            QSKIP("../shared/data/tfevents is absent: real-file test skipped");
        // The event files alone: what tfevents_reader.py reads (the Lightning folders' hparams.yaml
        // are paramsFileWinsOverHparamsCopy's).
        const QStringList events = realFiles(QStringLiteral("*tfevents*"));
        const QString ws = freshWorkspace();
        const auto results = import(ws, events);
        int imported = 0;
        for (const auto &r : results) {
            if (r.status == FileImportResult::Status::Imported)
                ++imported;
            else
                QFAIL(qPrintable(
                    r.path + QLatin1Char(' ') + statusName(r.status) + QLatin1Char(' ') + r.message));
        }
        QCOMPARE(imported, 33);
        Workspace w(ws, Workspace::Role::Reader);
        const struct {
            const char *sql;
            const char *file;
        } checks[] = { { kRealSeriesSql, "real/tfevents.series.csv" },
            { kRealParamsSql, "real/tfevents.params.csv" } };
        for (const auto &c : checks) {
            const QString expected = readText(fixture(QLatin1String(c.file)));
            QVERIFY(!expected.isEmpty());
            const QString actual = csvOf(w.db(), c.sql);
            if (actual != expected) {
                qWarning().noquote() << "actual:\n"
                                     << actual << "\nexpected (tfevents_reader.py):\n"
                                     << expected;
                QFAIL(
                    qPrintable(QStringLiteral("differs from tfevents_reader.py: ") + QLatin1String(c.file)));
            }
        }
        const QString expectedHistograms = readText(fixture(QStringLiteral("real/tfevents.histograms.csv")));
        QString histograms = histogramsCsv(w.db());
        // The reader prints no summary statistics: compare the columns it has.
        QStringList trimmed;
        for (const QString &line : histograms.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            trimmed << line.section(QLatin1Char(','), 0, -6);
        histograms = trimmed.join(QLatin1Char('\n')) + QLatin1Char('\n');
        if (histograms != expectedHistograms) {
            qWarning().noquote() << "actual:\n"
                                 << histograms << "\nexpected (tfevents_reader.py):\n"
                                 << expectedHistograms;
            QFAIL("histograms differ from tfevents_reader.py");
        }
        // Records per file (the source's event count), against --files: a file is its run and its
        // number in the run's name order.
        QStringList files;
        // rtrim(path, its characters other than '/') leaves the folder with its trailing '/'.
        SqliteStmt st(w.db(),
            "SELECT r.name, s.path, s.event_count FROM source s JOIN run r "
            "ON r.path || '/' = rtrim(s.path, replace(s.path, '/', '')) ORDER BY r.name, s.path");
        QString lastRun;
        int ordinal = 0;
        while (st.step()) {
            const QString run = st.columnText(0);
            ordinal = run == lastRun ? ordinal + 1 : 1;
            lastRun = run;
            files << QStringLiteral("%1,%2,%3").arg(run).arg(ordinal).arg(st.columnInt(2));
        }
        QStringList expectedFiles;
        for (const QString &line :
            readText(fixture(QStringLiteral("real/tfevents.files.csv"))).split(QLatin1Char('\n')))
            if (!line.isEmpty() && !line.startsWith(QLatin1String("run,")))
                expectedFiles << line.section(QLatin1Char(','), 0, 2);
        QCOMPARE(files, expectedFiles);

        // The 25 Lightning trials: finished, 30-41 hparams each, hp_metric logged once.
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM run WHERE name LIKE 'shapeaxi_lightning_hparams/%' "
                                 "AND status = 'success'"),
            25);
        QCOMPARE(w.db().queryInt("SELECT min(n) FROM (SELECT count(*) AS n FROM param GROUP BY run_id)"), 30);
        QCOMPARE(w.db().queryInt("SELECT max(n) FROM (SELECT count(*) AS n FROM param GROUP BY run_id)"), 41);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric m JOIN string s ON s.id = m.key_id "
                                 "WHERE s.str = 'hp_metric'"),
            25);
        // Duplicate steps: the reducer's runs restart at step 90; TensorBoard shows 200 points a tag.
        QCOMPARE(
            w.db().queryInt("SELECT count(*) FROM metric m JOIN run r ON r.id = m.run_id "
                            "WHERE r.name = 'reducer_duplicate_steps/run_1' AND NOT EXISTS ("
                            "SELECT 1 FROM metric_series l WHERE l.run_id = m.run_id AND l.key_id = m.key_id "
                            "AND l.segment > m.segment AND l.first_step <= m.step)"),
            400);
        QCOMPARE(
            w.db().queryInt("SELECT count(*) FROM metric_series WHERE segment = 1 AND first_step = 90"), 6);
        // Not imported and said so: wandb's image and custom_scalars layout.
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM diagnostic WHERE code LIKE 'not-imported-%'"), 2);
        // Nothing went wrong reading them.
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM diagnostic WHERE severity <> 'info'"), 0);
    }

    // Lightning writes the configuration twice: hparams.yaml with its types, and the hparams
    // plugin's copy in the event file (None as "None", False as 0). The file wins, whichever of the
    // two is imported first.
    void paramsFileWinsOverHparamsCopy()
    {
        if (!QFileInfo::exists(realDir()))
            QSKIP("../shared/data/tfevents is absent: real-file test skipped");
        const QStringList events = realFiles(QStringLiteral("*tfevents*"));
        const QStringList yamls = realFiles(QStringLiteral("hparams.yaml"));
        QCOMPARE(yamls.size(), 25);
        QString tables[2];
        for (int order = 0; order < 2; ++order) {
            const QString ws = freshWorkspace();
            for (const QStringList &batch :
                order == 0 ? QList<QStringList> { events, yamls } : QList<QStringList> { yamls, events })
                for (const auto &r : import(ws, batch))
                    QVERIFY2(r.status == FileImportResult::Status::Imported, qPrintable(r.path + r.message));
            Workspace w(ws, Workspace::Role::Reader);
            tables[order] = csvOf(w.db(), kRealParamsSql);
            QCOMPARE(firstText(w.db(),
                         "SELECT p.value || ' ' || p.kind FROM param p JOIN run r ON r.id = p.run_id "
                         "WHERE r.name = 'shapeaxi_lightning_hparams/version_0' AND p.key = 'pretrained'"),
                QStringLiteral("false bool"));
            QCOMPARE(firstText(w.db(),
                         "SELECT p.kind FROM param p JOIN run r ON r.id = p.run_id "
                         "WHERE r.name = 'shapeaxi_lightning_hparams/version_0' AND p.key = 'model'"),
                QStringLiteral("null"));
        }
        QCOMPARE(tables[1], tables[0]);
    }
};

QTEST_GUILESS_MAIN(TestTfEventsImporter)
#include "tst_tfeventsimporter.moc"
