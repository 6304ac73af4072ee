// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for the CSV/JSONL metric-log importer and the params files beside logs (hparams.yaml,
// W&B config.yaml). Fixtures and expected/NAME.{points,params}.csv are written by
// data/gen_fixtures.py from the values it wrote; they are compared exactly, never rewritten here.

#include "builtinimporters.h"
#include "importhelpers.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "ingest/inputfile.h"
#include "paramsfile/yamlparams.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "tabular/csvreader.h"
#include "tabular/tabularlayout.h"
#include "text/yamldocument.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace plumb;

namespace {

using Status = FileImportResult::Status;

QString fixture(const QString &name)
{
    return QStringLiteral(PLUMB_TEST_DATA "/") + name;
}

QByteArray readBytes(const QString &path)
{
    QFile in(path);
    return in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray();
}

QString csv(SqliteDb &db, const char *header, const char *sql)
{
    SqliteStmt st(db, sql);
    QStringList lines;
    while (st.step()) {
        QStringList fields;
        for (int c = 0; c < st.columnCount(); ++c)
            fields << st.columnText(c).replace(QLatin1Char('\n'), QStringLiteral("\\n"));
        lines << fields.join(QLatin1Char(','));
    }
    std::sort(lines.begin(), lines.end());
    QString out = QLatin1String(header) + QLatin1Char('\n');
    for (const QString &l : lines)
        out += l + QLatin1Char('\n');
    return out;
}

const char *kPointsSql
    = "SELECT r.name, s.str, m.segment, m.step, m.wall_time_ns, CASE WHEN m.value IS NULL THEN 'nan' "
      "WHEN m.value > 1.7976931348623157e308 THEN 'inf' WHEN m.value < -1.7976931348623157e308 THEN '-inf' "
      "ELSE printf('%.9g', m.value) END FROM metric m JOIN run r ON r.id = m.run_id JOIN string s ON s.id = "
      "m.key_id";
const char *kParamsSql = "SELECT r.name, p.key, p.value, p.kind FROM param p JOIN run r ON r.id = p.run_id";

QString text(SqliteDb &db, const char *sql)
{
    SqliteStmt st(db, sql);
    return st.step() ? st.columnText(0) : QString();
}

int64_t count(const QString &ws, const char *sql)
{
    Workspace w(ws, Workspace::Role::Reader);
    return w.db().queryInt(sql, -1);
}

// Roles as "name:role" in column order.
QString roles(const TabularLayout &l)
{
    QStringList out;
    for (const auto &c : l.columns)
        out << c.name + QLatin1Char(':') + roleName(c.role)
                + (c.role == ColumnRole::WallTime ? QLatin1Char('/') + timeUnitName(c.timeUnit) : QString());
    return out.join(QLatin1Char(' '));
}

std::vector<std::vector<std::string>> records(CsvReader &r)
{
    std::vector<std::vector<std::string>> out;
    std::vector<std::string_view> f;
    while (r.next(f))
        out.emplace_back(f.begin(), f.end());
    return out;
}

} // namespace

class TestTabularImporter : public QObject {
    Q_OBJECT

private:
    ImporterRegistry m_registry;
    QTemporaryDir m_tmp;
    int m_wsCounter = 0;

    QString freshWorkspace() { return m_tmp.filePath(QStringLiteral("ws%1.plumb").arg(++m_wsCounter)); }

    std::vector<FileImportResult> import(
        const QString &ws, const QStringList &paths, const ImportOptions &o = {})
    {
        ImportRunner runner(m_registry, ws);
        runner.setOptions(o);
        return runner.run(paths);
    }

    // Line by line, so that a difference names its line.
    void compareWith(const QString &ws, const QString &name)
    {
        Workspace w(ws, Workspace::Role::Reader);
        const auto expected = [&](const char *what) {
            return QString::fromUtf8(
                readBytes(fixture(QStringLiteral("expected/") + name + QLatin1String(what))))
                .split(QLatin1Char('\n'));
        };
        QCOMPARE(csv(w.db(), "run,key,segment,step,wall_ns,value", kPointsSql).split(QLatin1Char('\n')),
            expected(".points.csv"));
        QCOMPARE(
            csv(w.db(), "run,key,value,kind", kParamsSql).split(QLatin1Char('\n')), expected(".params.csv"));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        registerBuiltinImporters(m_registry);
    }

    // RFC 4180 records, read whole and one byte at a time (every chunk boundary).
    void csvReader_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<char>("delimiter");
        QTest::addColumn<QString>("expected"); // records joined by '|', fields by '^'
        QTest::addColumn<QString>("lines"); // first line of each record
        QTest::newRow("plain") << QByteArray("a,b\n1,2\n") << ',' << QStringLiteral("a^b|1^2")
                               << QStringLiteral("1 2");
        QTest::newRow("crlf+bom") << QByteArray("\xEF\xBB\xBFx,y\r\n1,2\r\n") << ','
                                  << QStringLiteral("x^y|1^2") << QStringLiteral("1 2");
        QTest::newRow("quoted") << QByteArray("a,b\n\"x,\"\"q\"\"\ny\",2\n3,\"\"\n") << ','
                                << QStringLiteral("a^b|x,\"q\"\ny^2|3^") << QStringLiteral("1 2 4");
        QTest::newRow("empty lines, no last line end")
            << QByteArray("a;b\n\n1;2\r\n\r\n3;") << ';' << QStringLiteral("a^b|1^2|3^")
            << QStringLiteral("1 3 5");
        QTest::newRow("tabs, empty fields")
            << QByteArray("a\tb\tc\n\t\t\n") << '\t' << QStringLiteral("a^b^c|^^") << QStringLiteral("1 2");
        QTest::newRow("quoted crlf") << QByteArray("a,b\r\n\"1\r\n2\",3\r\n4,5\r\n") << ','
                                     << QStringLiteral("a^b|1\r\n2^3|4^5") << QStringLiteral("1 2 4");
    }

    void csvReader()
    {
        QFETCH(QByteArray, text);
        QFETCH(char, delimiter);
        QFETCH(QString, expected);
        QFETCH(QString, lines);
        for (int mode = 0; mode < 2; ++mode) {
            int64_t at = 0;
            std::unique_ptr<CsvReader> r;
            if (mode == 0)
                r = std::make_unique<CsvReader>(
                    std::string_view(text.constData(), size_t(text.size())), delimiter);
            else
                r = std::make_unique<CsvReader>(
                    [&](char *out, int64_t) {
                        if (at >= text.size())
                            return int64_t(0);
                        *out = text[qsizetype(at++)];
                        return int64_t(1);
                    },
                    delimiter);
            QStringList recs, starts;
            std::vector<std::string_view> f;
            while (r->next(f)) {
                QStringList fields;
                for (auto s : f)
                    fields << QString::fromUtf8(s.data(), qsizetype(s.size()));
                recs << fields.join(QLatin1Char('^'));
                starts << QString::number(r->recordLine());
                QVERIFY(!r->unterminatedQuote());
            }
            QCOMPARE(recs.join(QLatin1Char('|')), expected);
            QCOMPARE(starts.join(QLatin1Char(' ')), lines);
        }
    }

    // Python's json module writes NaN, Infinity and -Infinity as bare words: quoted for a JSON parser,
    // only where they stand as values, never inside strings or as part of other words.
    void nonFiniteWords_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected"); // empty: nothing to quote
        QTest::newRow("values") << QStringLiteral(R"({"a": NaN, "b":Infinity,"c": -Infinity})")
                                << QStringLiteral(R"({"a": "NaN", "b":"Infinity","c": "-Infinity"})");
        QTest::newRow("in arrays") << QStringLiteral("[NaN,1,-Infinity]")
                                   << QStringLiteral(R"(["NaN",1,"-Infinity"])");
        QTest::newRow("in strings") << QStringLiteral(R"({"note": "NaN at "Infinity" step", "x": 1})")
                                    << QString();
        QTest::newRow("escaped quote then word")
            << QStringLiteral(R"({"s": "a\\", "v": NaN})") << QStringLiteral(R"({"s": "a\\", "v": "NaN"})");
        QTest::newRow("part of a word")
            << QStringLiteral(R"({"NaNo": 1, "x": NaNa, "y": Infinityx})") << QString();
        QTest::newRow("none") << QStringLiteral(R"({"loss": 0.5})") << QString();
    }
    void nonFiniteWords()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        const QByteArray in = json.toUtf8();
        std::string out = "untouched";
        const bool quoted
            = tabular::quoteNonFiniteWords(std::string_view(in.constData(), size_t(in.size())), out);
        QCOMPARE(quoted, !expected.isEmpty());
        QCOMPARE(QString::fromStdString(out), expected.isEmpty() ? QStringLiteral("untouched") : expected);
        QVERIFY(tabular::parseDouble("NaN") && std::isnan(*tabular::parseDouble("NaN")));
        QCOMPARE(*tabular::parseDouble("-Infinity"), -HUGE_VAL);
    }

    void csvReaderUnterminatedQuote()
    {
        CsvReader r(std::string_view("a,b\n1,\"open\n2,3\n"), ',');
        const auto recs = records(r);
        QCOMPARE(recs.size(), size_t(2));
        QVERIFY(r.unterminatedQuote());
        QCOMPARE(r.recordLine(), int64_t(2));
        QCOMPARE(r.recordOffset(), int64_t(4));
    }

    void cellParsing()
    {
        using namespace tabular;
        QCOMPARE(parseDouble(" 1.5 ").value_or(0), 1.5);
        QVERIFY(std::isnan(parseDouble("NaN").value_or(0)));
        QVERIFY(std::isinf(parseDouble("-Infinity").value_or(0)));
        QVERIFY(!parseDouble("1,5"));
        QVERIFY(!parseDouble(""));
        QCOMPARE(parseInteger("3.0").value_or(-1), int64_t(3));
        QVERIFY(!parseInteger("0.1"));
        QCOMPARE(
            parseWallNs("1700000000.123456789", TimeUnit::Seconds).value_or(0), int64_t(1700000000123456789));
        QCOMPARE(
            parseWallNs("1700000000123", TimeUnit::Milliseconds).value_or(0), int64_t(1700000000123000000));
        QCOMPARE(parseWallNs("1700000000123456", TimeUnit::Microseconds).value_or(0),
            int64_t(1700000000123456000));
        QCOMPARE(parseIso8601("1970-01-01T00:00:01Z").value_or(0), int64_t(1000000000));
        QCOMPARE(parseIso8601("2024-03-01T13:00:00+01:00").value_or(0),
            parseIso8601("2024-03-01T12:00:00Z").value_or(1));
        QVERIFY(!parseIso8601("2024-13-01"));
        QVERIFY(!parseIso8601("yesterday"));
        // Past what int64 nanoseconds from 1970 hold (a fuzzer's find: the product overflowed).
        QVERIFY(!parseIso8601("9999-12-31T23:59:59Z"));
        QVERIFY(!parseIso8601("0001-01-01"));
        QVERIFY(parseIso8601("2262-01-01T00:00:00Z"));
        QVERIFY(parseIso8601("1678-01-01T00:00:00Z"));
        QCOMPARE(formatNumber(0.0001), QStringLiteral("0.0001"));
        QCOMPARE(formatNumber(32), QStringLiteral("32"));
    }

    // Each detection case: the roles and the dialect from the file's head.
    void roleDetection_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expected");
        QTest::newRow("lightning")
            << QStringLiteral("lightning/version_0/metrics.csv")
            << QStringLiteral("epoch:metric step:step train_loss:metric val_loss:metric val_acc:metric");
        QTest::newRow("keras: epoch is the step")
            << QStringLiteral("keras_training.log")
            << QStringLiteral("epoch:step accuracy:metric loss:metric val_accuracy:metric val_loss:metric");
        QTest::newRow("hf jsonl")
            << QStringLiteral("hf_trainer.jsonl")
            << QStringLiteral("epoch:metric learning_rate:metric loss:metric perf/tokens_per_sec:metric "
                              "step:step eval_loss:metric eval_runtime:metric");
        QTest::newRow("long form") << QStringLiteral("mlflow_export.csv")
                                   << QStringLiteral(
                                          "run_id:run key:key value:value step:step timestamp:time/ms");
        QTest::newRow("iso time") << QStringLiteral("iso_time.csv")
                                  << QStringLiteral("global_step:step timestamp:time/iso8601 loss:metric");
        QTest::newRow("benchmark: param, us time, no step")
            << QStringLiteral("benchmark.csv")
            << QStringLiteral(
                   "model:param batch_size:metric throughput:metric latency_ms:metric wall_time_us:time/us");
        QTest::newRow("semicolon") << QStringLiteral("semicolon.csv")
                                   << QStringLiteral("step:step val ; loss:metric note:param");
        QTest::newRow("tabs") << QStringLiteral("tabs.tsv")
                              << QStringLiteral("step:step val \t loss:metric note:param");
        QTest::newRow("odd names") << QStringLiteral("odd_names.csv")
                                   << QStringLiteral("k:metric when:metric score:metric loss:metric");
    }

    void roleDetection()
    {
        QFETCH(QString, file);
        QFETCH(QString, expected);
        const QByteArray text = readBytes(fixture(file));
        QVERIFY(!text.isEmpty());
        const TabularLayout l = TabularLayout::detect(text, true);
        QVERIFY2(l.confidence > 0, qPrintable(l.reason));
        QCOMPARE(roles(l), expected);
        QVERIFY(l.problem().isEmpty());
        // The head alone (cut mid-line) detects the same.
        const TabularLayout cut = TabularLayout::detect(text.left(text.size() - 3), false);
        QCOMPARE(roles(cut), expected);
    }

    void notClaimed_data()
    {
        QTest::addColumn<QString>("path");
        for (const char *f : { "people.csv", "no_header.csv", "codes.csv", "trace.jsonl", "openlineage.jsonl",
                 "single.json", "pretty.json", "trace.json" })
            QTest::newRow(f) << fixture(QStringLiteral("not/") + QLatin1String(f));
        for (const char *f :
            { "traces/nsys/cloverleaf_gpu_trace.csv", "traces/nsys/cloverleaf_cuda_api_trace.csv",
                "traces/kineto/tracelens_h100_qwen.gpu_timeline.csv",
                "lineage/openlineage/example_full_event.json",
                "lineage/openlineage/dbt_successful_run_events.json" })
            QTest::newRow(f) << QStringLiteral(PLUMB_SHARED_DATA "/") + QLatin1String(f);
    }

    void notClaimed()
    {
        QFETCH(QString, path);
        if (path.startsWith(QLatin1String(PLUMB_SHARED_DATA)) && !QFileInfo::exists(path))
            QSKIP("../shared/data is absent: the real files from other tools are not checked");
        const QByteArray head = InputFile::peek(path, 64 * 1024);
        QVERIFY(!head.isEmpty());
        const Importer *imp = m_registry.find(head, QFileInfo(path).fileName());
        QVERIFY2(!imp || (imp->id() != QLatin1String("tabular") && imp->id() != QLatin1String("paramsfile")),
            qPrintable(imp ? imp->id() : QString()));
    }

    void goldens_data()
    {
        QTest::addColumn<QStringList>("paths");
        QTest::addColumn<QString>("golden");
        for (const char *f :
            { "keras_training.log", "hf_trainer.jsonl", "mlflow_export.csv", "rfc4180.csv", "semicolon.csv",
                "tabs.tsv", "iso_time.csv", "benchmark.csv", "bad_cells.csv", "diverged.jsonl" })
            QTest::newRow(f) << QStringList { fixture(QLatin1String(f)) } << QString::fromLatin1(f);
        QTest::newRow("lightning folder")
            << QStringList { fixture(QStringLiteral("lightning")) } << QStringLiteral("lightning");
        QTest::newRow("lightning, hparams.yaml first")
            << QStringList { fixture(QStringLiteral("lightning/version_0/hparams.yaml")),
                   fixture(QStringLiteral("lightning/version_0/metrics.csv")) }
            << QStringLiteral("lightning");
        QTest::newRow("lightning, metrics.csv first")
            << QStringList { fixture(QStringLiteral("lightning/version_0/metrics.csv")),
                   fixture(QStringLiteral("lightning/version_0/hparams.yaml")) }
            << QStringLiteral("lightning");
        QTest::newRow("wandb config.yaml")
            << QStringList { fixture(QStringLiteral("wandb")) } << QStringLiteral("wandb");
    }

    void goldens()
    {
        QFETCH(QStringList, paths);
        QFETCH(QString, golden);
        const QString ws = freshWorkspace();
        const auto results = import(ws, paths);
        for (const auto &r : results)
            QVERIFY2(r.status == Status::Imported, qPrintable(r.path + QStringLiteral(": ") + r.message));
        compareWith(ws, golden);
    }

    // Golden counts: runs, keys, points, params, restarts.
    void counts_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QList<qint64>>("expected"); // runs, keys, points, params, series with a restart
        QTest::newRow("long form, two runs, restarts")
            << QStringLiteral("mlflow_export.csv") << QList<qint64> { 2, 2, 34, 0, 2 };
        QTest::newRow("lightning") << QStringLiteral("lightning") << QList<qint64> { 1, 4, 92, 9, 0 };
        QTest::newRow("hf jsonl") << QStringLiteral("hf_trainer.jsonl") << QList<qint64> { 1, 6, 86, 0, 0 };
        QTest::newRow("bad cells") << QStringLiteral("bad_cells.csv") << QList<qint64> { 1, 2, 8, 0, 0 };
        QTest::newRow("NaN and Infinity words")
            << QStringLiteral("diverged.jsonl") << QList<qint64> { 1, 2, 2141, 0, 0 };
    }

    void counts()
    {
        QFETCH(QString, file);
        QFETCH(QList<qint64>, expected);
        const QString ws = freshWorkspace();
        const auto results = import(ws, { fixture(file) });
        QVERIFY(!results.empty());
        QCOMPARE(count(ws, "SELECT count(*) FROM run"), expected[0]);
        QCOMPARE(count(ws, "SELECT count(DISTINCT key_id) FROM metric"), expected[1]);
        QCOMPARE(count(ws, "SELECT count(*) FROM metric"), expected[2]);
        QCOMPARE(count(ws, "SELECT count(*) FROM param"), expected[3]);
        QCOMPARE(
            count(ws, "SELECT count(DISTINCT run_id || '/' || key_id) FROM metric_series WHERE segment > 0"),
            expected[4]);
    }

    void raggedRowFails()
    {
        const QString ws = freshWorkspace();
        const auto results = import(ws, { fixture(QStringLiteral("ragged.csv")) });
        QCOMPARE(results.size(), size_t(1));
        QCOMPARE(results[0].status, Status::Failed);
        QVERIFY2(results[0].message.contains(
                     QStringLiteral("ragged.csv line 5 (byte 44) has 4 fields where the header "
                                    "has 3")),
            qPrintable(results[0].message));
        QCOMPARE(results[0].location, QStringLiteral("line 5, byte 44"));
        QCOMPARE(count(ws, "SELECT count(*) FROM run"), 0);
        QCOMPARE(count(ws, "SELECT count(*) FROM metric"), 0);
        QCOMPARE(count(ws, "SELECT count(*) FROM source"), 0);
    }

    void badCellsCounted()
    {
        const QString ws = freshWorkspace();
        const auto results = import(ws, { fixture(QStringLiteral("bad_cells.csv")) });
        QCOMPARE(results[0].status, Status::Imported);
        Workspace w(ws, Workspace::Role::Reader);
        SqliteStmt st(w.db(), "SELECT count, location, message FROM diagnostic WHERE code = 'bad-cell'");
        QVERIFY(st.step());
        QCOMPARE(st.columnInt(0), int64_t(3)); // oops, n/a, #REF!
        QCOMPARE(st.columnText(1), QStringLiteral("line 3, column loss"));
        QVERIFY(st.columnText(2).contains(QStringLiteral("\"oops\"")));
        // nan and inf are values, an empty cell is nothing
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric WHERE value IS NULL"), int64_t(1));
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric m JOIN string s ON s.id = m.key_id "
                                 "WHERE s.str = 'acc'"),
            int64_t(3));
    }

    void reimportAppendedNoDuplicates()
    {
        const QString ws = freshWorkspace();
        const QString log = m_tmp.filePath(QStringLiteral("grow/metrics_log.csv"));
        QVERIFY(QDir().mkpath(QFileInfo(log).absolutePath()));
        QVERIFY(QFile::copy(fixture(QStringLiteral("append_1.csv")), log));
        QCOMPARE(import(ws, { log })[0].status, Status::Imported);
        QCOMPARE(count(ws, "SELECT count(*) FROM metric"), 5);
        QVERIFY(QFile::remove(log) && QFile::copy(fixture(QStringLiteral("append_2.csv")), log));
        const auto again = import(ws, { log });
        QCOMPARE(again[0].status, Status::Imported);
        QCOMPARE(count(ws, "SELECT count(*) FROM metric"), 8);
        QCOMPARE(count(ws, "SELECT count(*) FROM metric WHERE dup > 0 OR segment > 0"), 0);
        QCOMPARE(count(ws, "SELECT count(*) FROM run"), 1);
        // Only the appended lines were read: from the byte after the first file's last line.
        const qint64 firstSize = QFileInfo(fixture(QStringLiteral("append_1.csv"))).size();
        QVERIFY2(again[0].message.contains(
                     QStringLiteral("3 records appended since source 1 (read from byte %1)").arg(firstSize)),
            qPrintable(again[0].message));
        QCOMPARE(count(ws, "SELECT resume_offset FROM source WHERE id = 2"),
            QFileInfo(fixture(QStringLiteral("append_2.csv"))).size());
        // The same bytes a third time: a no-op.
        QCOMPARE(import(ws, { log })[0].status, Status::AlreadyImported);
    }

    // JSON lines continue the same way; a line still being written waits for the next import.
    void jsonlContinues()
    {
        const QString ws = freshWorkspace();
        const QString log = m_tmp.filePath(QStringLiteral("jsonl/metrics.jsonl"));
        QVERIFY(QDir().mkpath(QFileInfo(log).absolutePath()));
        const QByteArray first = "{\"step\": 0, \"loss\": 1.0}\n{\"step\": 1, \"loss\": 0.5}\n";
        QVERIFY(writeTestFile(log, first + "{\"step\": 2, \"lo"));
        QCOMPARE(import(ws, { log })[0].status, Status::Imported);
        QCOMPARE(count(ws, "SELECT resume_offset FROM source"), first.size());
        QVERIFY(
            writeTestFile(log, first + "{\"step\": 2, \"loss\": 0.25}\n{\"step\": 3, \"loss\": 0.125}\n"));
        const auto again = import(ws, { log });
        QCOMPARE(again[0].status, Status::Imported);
        QVERIFY2(
            again[0].message.contains(
                QStringLiteral("2 records appended since source 1 (read from byte %1)").arg(first.size())),
            qPrintable(again[0].message));
        QCOMPARE(count(ws, "SELECT count(*) FROM metric"), 4);
        QCOMPARE(count(ws, "SELECT count(*) FROM metric WHERE dup > 0 OR segment > 0"), 0);
    }

    // A log that cannot be continued is read again whole and skips the points stored before: one
    // without a step column (a row's step is its index), and one whose earlier lines changed.
    void reimportWholeWhenNotContinuable_data()
    {
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::addColumn<int>("pointsBefore");
        QTest::addColumn<int>("points");
        QTest::newRow("no step column") << "loss,acc\n1.0,0.1\n0.5,0.2\n"
                                        << "loss,acc\n1.0,0.1\n0.5,0.2\n0.25,0.3\n"
                                        << 4 << 6;
        QTest::newRow("rewritten") << "step,loss\n0,1.0\n1,0.5\n"
                                   << "step,loss\n0,1.5\n1,0.5\n2,0.25\n"
                                   << 2 << 3;
        QTest::newRow("last line had no line end") << "step,loss\n0,1.0\n1,0.5"
                                                   << "step,loss\n0,1.0\n1,0.5\n2,0.25\n"
                                                   << 2 << 3;
    }
    void reimportWholeWhenNotContinuable()
    {
        QFETCH(QString, first);
        QFETCH(QString, second);
        QFETCH(int, pointsBefore);
        QFETCH(int, points);
        const QString ws = freshWorkspace();
        const QString log
            = m_tmp.filePath(QStringLiteral("whole/%1/log.csv").arg(QLatin1String(QTest::currentDataTag())));
        QVERIFY(QDir().mkpath(QFileInfo(log).absolutePath()));
        QVERIFY(writeTestFile(log, first.toUtf8()));
        QCOMPARE(import(ws, { log })[0].status, Status::Imported);
        QVERIFY(writeTestFile(log, second.toUtf8()));
        const auto again = import(ws, { log });
        QCOMPARE(again[0].status, Status::Imported);
        QVERIFY2(!again[0].message.contains(QStringLiteral("appended since")), qPrintable(again[0].message));
        QCOMPARE(count(ws, "SELECT count(*) FROM metric"), points);
        QCOMPARE(
            count(ws, "SELECT count FROM diagnostic WHERE code = 'points-imported-before'"), pointsBefore);
    }

    void overridesApplied()
    {
        // Detected: no step (row index), "k" and "when" metrics. Given: step k, time when.
        const QString ws = freshWorkspace();
        ImportOptions o;
        o.tabular.stepColumn = QStringLiteral("k");
        o.tabular.timeColumn = QStringLiteral("when");
        QCOMPARE(import(ws, { fixture(QStringLiteral("odd_names.csv")) }, o)[0].status, Status::Imported);
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(csv(w.db(), "key,step,wall",
                     "SELECT s.str, m.step, m.wall_time_ns FROM metric m JOIN string s ON "
                     "s.id = m.key_id WHERE s.str = 'score'"),
            QStringLiteral("key,step,wall\nscore,0,1700000000000000000\nscore,10,1700000002000000000\n"
                           "score,15,1700000003000000000\nscore,5,1700000001000000000\n"));
        QCOMPARE(w.db().queryInt("SELECT count(DISTINCT key_id) FROM metric"), int64_t(2));

        // Long form and per-column roles; an unknown column fails the file with the column names.
        TabularLayout l = TabularLayout::detect(readBytes(fixture(QStringLiteral("odd_names.csv"))), true);
        TabularOverrides bad;
        bad.stepColumn = QStringLiteral("nope");
        QVERIFY(l.apply(bad).contains(
            QStringLiteral("no column named nope (the columns are k, when, score, loss)")));
        const QString ws2 = freshWorkspace();
        ImportOptions wrong;
        wrong.tabular.runColumn = QStringLiteral("nope");
        const auto r = import(ws2, { fixture(QStringLiteral("odd_names.csv")) }, wrong);
        QCOMPARE(r[0].status, Status::Failed);
        QVERIFY2(r[0].message.contains(QStringLiteral("odd_names.csv"))
                && r[0].message.contains(QStringLiteral("nope")),
            qPrintable(r[0].message));
        TabularOverrides ignore;
        ignore.roles
            = { { QStringLiteral("loss"), ColumnRole::Ignore }, { QStringLiteral("k"), ColumnRole::Step } };
        TabularLayout l2 = TabularLayout::detect(readBytes(fixture(QStringLiteral("odd_names.csv"))), true);
        QVERIFY(l2.apply(ignore).isEmpty());
        QCOMPARE(roles(l2), QStringLiteral("k:step when:metric score:metric loss:ignore"));
    }

    void nestedYaml()
    {
        YamlDocument::Error error;
        const auto doc
            = YamlDocument::parse("a: 1\nb:\n  c: 'x'\n  d:\n  - 1\n  - two\ne: !!python/object:foo.Bar\n"
                                  "  x: 1\nf: [1, 2]\ng: yes\nh: 1.0e-3\n",
                error);
        QVERIFY2(doc, qPrintable(error.text(QStringLiteral("t"))));
        const auto e = YamlParams::flatten(*doc, QLatin1Char('/'));
        QStringList got;
        for (const auto &x : e)
            got << x.key + QLatin1Char('=') + x.value;
        QCOMPARE(got.join(QLatin1Char(' ')),
            QStringLiteral("a=1 b/c=x b/d=[1,\"two\"] e=!!python/object:foo.Bar f=[1,2] g=yes h=0.001"));
    }

    // Deeper settings: maps in lists become JSON objects, nested maps keys, a shared object (PyYAML's
    // &id001/*id001) is read at both places, empty collections and quoted numbers keep their form.
    void nestedYamlDeeper()
    {
        YamlDocument::Error error;
        const auto doc
            = YamlDocument::parse("callbacks:\n- name: ckpt\n  every: [1, 2]\n- !!python/tuple\n  - 3\n"
                                  "model:\n  enc: &id001\n    dims: [64, 128]\n    act: relu\n"
                                  "  dec: *id001\nempty: {}\nnone: []\nversion: '3.10'\nratio: .5\n",
                error);
        QVERIFY2(doc, qPrintable(error.text(QStringLiteral("t"))));
        QStringList got;
        for (const auto &x : YamlParams::flatten(*doc, QLatin1Char('.'))) {
            got << x.key + QLatin1Char('=') + x.value + QLatin1Char(':') + QString::number(int(x.kind));
        }
        const auto kind = [](ParamKind k) { return QString::number(int(k)); };
        QCOMPARE(got,
            (QStringList { QStringLiteral("callbacks=[{\"every\":[1,2],\"name\":\"ckpt\"},[3]]:")
                    + kind(ParamKind::Json),
                QStringLiteral("model.enc.dims=[64,128]:") + kind(ParamKind::Json),
                QStringLiteral("model.enc.act=relu:") + kind(ParamKind::String),
                QStringLiteral("model.dec.dims=[64,128]:") + kind(ParamKind::Json),
                QStringLiteral("model.dec.act=relu:") + kind(ParamKind::String),
                QStringLiteral("empty={}:") + kind(ParamKind::Json),
                QStringLiteral("none=[]:") + kind(ParamKind::Json),
                QStringLiteral("version=3.10:") + kind(ParamKind::String),
                QStringLiteral("ratio=0.5:") + kind(ParamKind::Number) }));
    }

    // The 25 Lightning trials of ../shared/data: hparams.yaml adds to the run of its event file's
    // folder, whichever is imported first; no run of its own.
    void realLightningHparams()
    {
        const QString dir = QStringLiteral(PLUMB_SHARED_DATA "/tfevents/shapeaxi_lightning_hparams");
        if (!QFileInfo::exists(dir))
            QSKIP("../shared/data is absent: the real Lightning logs are not checked");
        QStringList yamls, events;
        for (const QString &v : QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            const QDir d(dir + QLatin1Char('/') + v);
            yamls << d.filePath(QStringLiteral("hparams.yaml"));
            for (const QString &f : d.entryList({ QStringLiteral("events.out.tfevents.*") }, QDir::Files))
                events << d.filePath(f);
        }
        QCOMPARE(yamls.size(), 25);
        const QString eventsOnly = freshWorkspace(), folder = freshWorkspace(), yamlFirst = freshWorkspace();
        import(eventsOnly, events);
        const auto all = import(folder, { dir });
        int paramsFiles = 0;
        for (const auto &r : all) {
            QVERIFY2(r.status == Status::Imported, qPrintable(r.path + QStringLiteral(": ") + r.message));
            paramsFiles += r.format == QLatin1String("paramsfile");
        }
        QCOMPARE(paramsFiles, 25);
        import(yamlFirst, yamls);
        import(yamlFirst, events);
        const qint64 runs = count(eventsOnly, "SELECT count(*) FROM run");
        QCOMPARE(count(folder, "SELECT count(*) FROM run"), runs);
        QCOMPARE(count(yamlFirst, "SELECT count(*) FROM run"), runs);
        // Every trial's hparams.yaml keys are params of its run.
        for (const QString &ws : { folder, yamlFirst }) {
            QCOMPARE(
                count(ws,
                    "SELECT count(*) FROM run WHERE json_extract(metadata, '$.params_file') = 'hparams.yaml' "
                    "AND key LIKE 'tfevents:%'"),
                25);
            QVERIFY(
                count(ws, "SELECT count(*) FROM param") >= count(eventsOnly, "SELECT count(*) FROM param"));
        }
        Workspace w(folder, Workspace::Role::Reader);
        // version_6: a numpy array pickled into the yaml is kept as its tag, not flattened.
        QCOMPARE(text(w.db(),
                     "SELECT p.value FROM param p JOIN run r ON r.id = p.run_id WHERE r.name LIKE "
                     "'%/version_6' AND p.key = 'class_weights'"),
            QStringLiteral("!!python/object/apply:numpy.core.multiarray._reconstruct"));
        QCOMPARE(text(w.db(),
                     "SELECT p.value || ' ' || p.kind FROM param p JOIN run r ON r.id = p.run_id WHERE "
                     "r.name LIKE '%/version_0' AND p.key = 'lr'"),
            QStringLiteral("0.0001 number"));
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM param WHERE key LIKE 'class_weights/%'"), int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestTabularImporter)
#include "tst_tabularimporter.moc"
