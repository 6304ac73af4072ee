// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for the job lifecycle importer, on the fixtures data/gen_fixtures.py writes: the example
// timeline of ml-goodput-measurement's own tests (golden rows, then goodput by hand), Plumb's own
// event form with provisioning, two preemptions and restores (the figures of tst_goodput's
// hand-computed case), a file with one problem per line (each skipped with its line), a file with no
// usable entry (refused, workspace unchanged), sniffing, and the sample workspace's job log.

#include "analysis/goodput.h"
#include "analysis/objectivecheck.h"
#include "builtinimporters.h"
#include "goldens.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "serving/objectivesfile.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

using Status = FileImportResult::Status;
constexpr int64_t kS = 1'000'000'000;

QString fixture(const QString &name)
{
    return QStringLiteral(PLUMB_TEST_DATA "/") + name;
}

QString text(SqliteDb &db, const char *sql)
{
    SqliteStmt st(db, sql);
    return st.step() ? st.columnText(0) : QString();
}

} // namespace

class TestLifecycleImporter : public QObject {
    Q_OBJECT

private:
    ImporterRegistry m_registry;
    QTemporaryDir m_tmp;
    int m_wsCounter = 0;

    QString freshWorkspace() { return m_tmp.filePath(QStringLiteral("ws%1.plumb").arg(++m_wsCounter)); }

    FileImportResult importOne(const QString &ws, const QString &path)
    {
        ImportRunner runner(m_registry, ws);
        const auto r = runner.run({ path });
        return r.empty() ? FileImportResult() : r[0];
    }

    // The diagnostics of a workspace, for a failure message.
    static QString diagnostics(const QString &wsPath)
    {
        Workspace ws(wsPath, Workspace::Role::Reader);
        SqliteStmt st(ws.db(), "SELECT code, location, message FROM diagnostic");
        QStringList out;
        while (st.step())
            out << st.columnText(0) + QLatin1Char(' ') + st.columnText(1) + QLatin1Char(' ')
                    + st.columnText(2);
        return out.join(QLatin1Char('\n'));
    }

    int64_t onlyRun(Workspace &ws)
    {
        const std::vector<GoodputRun> runs = goodputRuns(ws);
        return runs.size() == 1 && runs[0].lifecycle ? runs[0].id : -1;
    }

private Q_SLOTS:
    void initTestCase() { registerBuiltinImporters(m_registry); }

    void sniff()
    {
        const Importer *lifecycle = m_registry.byId(QStringLiteral("lifecycle"));
        QVERIFY(lifecycle);
        QCOMPARE(
            lifecycle->sniff("{\"job_name\": \"a\", \"job_start_time\": 1.5}\n", QStringLiteral("x.log")),
            90);
        QCOMPARE(lifecycle->sniff("{\"event\": \"preemption\", \"time\": 3}\n", QStringLiteral("x")), 85);
        QCOMPARE(lifecycle->sniff("{\"step\": 1, \"loss\": 0.5}\n", QStringLiteral("metrics.jsonl")), 0);
        QCOMPARE(lifecycle->sniff("[{\"job_start_time\": 1}]", QStringLiteral("x.json")), 0);
        // The metric-log reader would take these lines too, with less confidence.
        const Importer *best = m_registry.find(
            QByteArray("{\"job_name\": \"a\", \"step_count\": 0, \"step_start_time\": 1.5}\n"),
            QStringLiteral("goodput.jsonl"));
        QVERIFY(best);
        QCOMPARE(best->id(), QStringLiteral("lifecycle"));
    }

    // The rows the example job becomes (golden), then its goodput: 15 s of steps in 20 s = 75%,
    // 1 s accelerator init, 2 s training prep, 2 s data loading, nothing else.
    void mlGoodputExample()
    {
        const QString wsPath = freshWorkspace();
        const FileImportResult r = importOne(wsPath, fixture(QStringLiteral("ml_goodput_example.jsonl")));
        QCOMPARE(r.status, Status::Imported);
        QCOMPARE(r.format, QStringLiteral("lifecycle"));
        QCOMPARE(r.records, 13);
        QCOMPARE(r.skipped, 0);
        Workspace ws(wsPath, Workspace::Role::Reader);
        compareGolden(csvOf(ws.db(),
                          "SELECT r.name AS run, e.kind, e.start_ns, e.end_ns, e.step, e.label, e.line "
                          "FROM lifecycle_event e JOIN run r ON r.id = e.run_id ORDER BY e.start_ns, e.line"),
            fixture(QStringLiteral("ml_goodput_example.expected.csv")));
        if (QTest::currentTestFailed())
            return;
        const int64_t run = onlyRun(ws);
        QVERIFY(run > 0);
        const GoodputReport g = computeGoodput(ws, run);
        QVERIFY2(g.valid(), qPrintable(g.problem));
        QCOMPARE(g.basis, QStringLiteral("lifecycle log"));
        QCOMPARE(g.runName, QStringLiteral("test-run"));
        const double byHand = (5 * 3.0) / 20.0;
        QCOMPARE(g.goodput, byHand);
        QCOMPARE(g.elapsedNs, 20 * kS);
        QCOMPARE(g.badputNs[size_t(Badput::AcceleratorInit)], 1 * kS);
        QCOMPARE(g.badputNs[size_t(Badput::TrainingPrep)], 2 * kS);
        QCOMPARE(g.badputNs[size_t(Badput::DataLoading)], 2 * kS);
        QCOMPARE(g.badputNs[size_t(Badput::ProgramStartup)] + g.badputNs[size_t(Badput::Other)], 0);
        QCOMPARE(g.idealStepNs, 3 * kS);
        QCOMPARE(g.disruptions, 0);

        // The same figures as objectives (`plumb check`, the SLO tab): goodput 0.75 holds >= 0.7,
        // breaks >= 0.9; with no run named, the newest job with a lifecycle log is checked.
        ObjectivesError e;
        const auto file
            = parseObjectives(QByteArray("objectives:\n  - goodput >= 0.7\n  - runtime_goodput >= 0.9\n"
                                         "  - badput.data_loading_s <= 2\n"),
                e);
        QVERIFY2(file, qPrintable(e.message));
        const CheckReport check = evaluateObjectives(ws, *file, CheckOptions {}, builtinQuantities());
        QCOMPARE(int(check.results.size()), 3);
        QCOMPARE(check.results[0].status, ObjectiveStatus::Pass);
        QCOMPARE(check.results[0].value, byHand);
        QCOMPARE(check.results[1].status, ObjectiveStatus::Fail);
        QCOMPARE(check.results[2].status, ObjectiveStatus::Pass);
        QCOMPARE(check.results[2].value, 2.0);
    }

    // Plumb's event form: the figures of tst_goodput's twoPreemptionsAndRestores, and program
    // goodput from job_info: 8 kept steps x 1e12 FLOPs in 16 s against 1e12 FLOP/s = 0.5.
    void preemptions()
    {
        const QString wsPath = freshWorkspace();
        const FileImportResult r = importOne(wsPath, fixture(QStringLiteral("preemptions.jsonl")));
        QCOMPARE(r.status, Status::Imported);
        QVERIFY2(r.skipped == 0, qPrintable(diagnostics(wsPath)));
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(ws.db().queryInt(
                     "SELECT count(*) FROM lifecycle_event WHERE kind = 'checkpoint_save' AND step = 3 "
                     "AND end_ns - start_ns = 1000000000"),
            1);
        QCOMPARE(
            text(ws.db(), "SELECT label FROM lifecycle_event WHERE kind = 'interruption' ORDER BY start_ns"),
            QStringLiteral("spot reclaimed"));
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM lifecycle_event WHERE kind = 'provisioning'"), 2);
        const GoodputReport g = computeGoodput(ws, onlyRun(ws));
        QVERIFY2(g.valid(), qPrintable(g.problem));
        QCOMPARE(g.runName, QStringLiteral("preempted-run"));
        QCOMPARE(g.elapsedNs, 50 * kS);
        QCOMPARE(g.productiveNs, 16 * kS);
        QCOMPARE(g.disruptions, 2);
        QCOMPARE(g.badputNs[size_t(Badput::WastedProgress)], 5 * kS);
        QCOMPARE(g.badputNs[size_t(Badput::CheckpointRestore)], 3 * kS);
        QCOMPARE(g.badputNs[size_t(Badput::Provisioning)], 15 * kS);
        QCOMPARE(g.badputNs[size_t(Badput::DisruptionRecovery)], 10 * kS);
        QCOMPARE(g.schedulingGoodput, 27.0 / 50.0);
        QVERIFY(g.programGoodput.has_value());
        QCOMPARE(*g.programGoodput, 0.5);
        QCOMPARE(*goodputQuantity(g, QStringLiteral("program_goodput")), 0.5);
    }

    // Lines 3 (cut short), 4 (nothing known), 5 (an end never started), 6 (no time) and 7 (a start
    // never ended) are skipped, each named by its line; the other lines import.
    void brokenLines()
    {
        const QString wsPath = freshWorkspace();
        const FileImportResult r = importOne(wsPath, fixture(QStringLiteral("broken.jsonl")));
        QCOMPARE(r.status, Status::Imported);
        QCOMPARE(r.records, 9);
        QCOMPARE(r.skipped, 5);
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM lifecycle_event"), 4);
        QCOMPARE(text(ws.db(), "SELECT location FROM diagnostic WHERE code = 'bad-json'"),
            QStringLiteral("line 3"));
        QCOMPARE(text(ws.db(), "SELECT location FROM diagnostic WHERE code = 'unknown-entry'"),
            QStringLiteral("line 4"));
        QCOMPARE(text(ws.db(), "SELECT location FROM diagnostic WHERE code = 'unmatched-end'"),
            QStringLiteral("line 5"));
        QCOMPARE(text(ws.db(), "SELECT location FROM diagnostic WHERE code = 'bad-time'"),
            QStringLiteral("line 6"));
        QCOMPARE(text(ws.db(), "SELECT location FROM diagnostic WHERE code = 'unclosed-phase'"),
            QStringLiteral("line 7"));
        QVERIFY(text(ws.db(), "SELECT message FROM diagnostic WHERE code = 'bad-time'")
                    .contains(QStringLiteral("step_start_time")));
    }

    // A member Plumb does not read holding Python's bare NaN (a logged loss) leaves its entry usable.
    void nanInAnotherMember()
    {
        const QString file = m_tmp.filePath(QStringLiteral("nan.jsonl"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"event\": \"job_start\", \"time\": 1700000000.0}\n"
                "{\"event\": \"step\", \"step\": 1, \"time\": 1700000001.0, \"loss\": NaN}\n"
                "{\"event\": \"step\", \"step\": 2, \"time\": 1700000002.0, \"grad_norm\": -Infinity}\n"
                "{\"event\": \"job_end\", \"time\": 1700000003.0}\n");
        f.close();
        const QString wsPath = freshWorkspace();
        const FileImportResult r = importOne(wsPath, file);
        QCOMPARE(r.status, Status::Imported);
        QCOMPARE(r.skipped, 0);
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM lifecycle_event WHERE kind = 'step'"), 2);
    }

    // Nothing usable: the import fails naming the file, and the workspace is as it was.
    void noUsableEntry()
    {
        const QString wsPath = freshWorkspace();
        QCOMPARE(
            importOne(wsPath, fixture(QStringLiteral("ml_goodput_example.jsonl"))).status, Status::Imported);
        const QString before = tableCounts(wsPath);
        const FileImportResult r = importOne(wsPath, fixture(QStringLiteral("no_usable_entry.jsonl")));
        QCOMPARE(r.status, Status::Failed);
        QVERIFY2(r.message.contains(QStringLiteral("no_usable_entry.jsonl")), qPrintable(r.message));
        QCOMPARE(tableCounts(wsPath), before);
    }

    // The sample workspace's job (resources/samples): imports whole, has disruptions, and its
    // goodput holds together (productive + badput = elapsed).
    void sampleJob()
    {
        const QString wsPath = freshWorkspace();
        const FileImportResult r = importOne(wsPath,
            QStringLiteral(PLUMB_SOURCE_DIR "/resources/samples/sample_training_job.lifecycle.jsonl.gz"));
        QCOMPARE(r.status, Status::Imported);
        QVERIFY2(r.skipped == 0, qPrintable(diagnostics(wsPath)));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const GoodputReport g = computeGoodput(ws, onlyRun(ws));
        QVERIFY2(g.valid(), qPrintable(g.problem));
        QCOMPARE(g.disruptions, 2);
        QVERIFY(g.programGoodput.has_value());
        int64_t sum = g.productiveNs;
        for (const int64_t b : g.badputNs)
            sum += b;
        QCOMPARE(sum, g.elapsedNs);
        QVERIFY(g.goodput > 0.5 && g.goodput < 0.95);
        QVERIFY(!goodputAdvice(g).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLifecycleImporter)
#include "tst_lifecycleimporter.moc"
