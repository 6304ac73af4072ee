// SPDX-License-Identifier: GPL-3.0-or-later
// Serving statistics, distribution shift, the objectives grammar and their evaluation, with
// hand-computed expectations.
#include "analysis/objectivecheck.h"
#include "analysis/serving.h"
#include "importhelpers.h"
#include "serving/objectivesfile.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace plumb;

namespace {

const QString kFixtures = QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/vllm/data");

ObjectiveSpec spec(const QString &text)
{
    ObjectivesError e;
    const auto s = parseObjectiveExpression(text, 1, 1, e);
    if (!s)
        qWarning("%s", qPrintable(e.text(QStringLiteral("expr"))));
    return s.value_or(ObjectiveSpec {});
}

} // namespace

class TestServing : public QObject {
    Q_OBJECT
private slots:
    void percentiles_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<double>("p");
        QTest::addColumn<double>("expected");
        // numpy.percentile(v, p): rank = p/100 * (n-1), linear between the neighbours.
        QTest::newRow("p50 of 4") << QList<double> { 4, 1, 3, 2 } << 50.0 << 2.5; // rank 1.5
        QTest::newRow("p90 of 4") << QList<double> { 1, 2, 3, 4 } << 90.0 << 3.7; // rank 2.7: 3 + 0.7
        QTest::newRow("p99 of 5") << QList<double> { 10, 20, 30, 40, 50 } << 99.0 << 49.6; // rank 3.96
        QTest::newRow("p95 of 5") << QList<double> { 50, 40, 30, 20, 10 } << 95.0 << 48.0; // rank 3.8
        QTest::newRow("p0") << QList<double> { 7, 3, 5 } << 0.0 << 3.0;
        QTest::newRow("p100") << QList<double> { 7, 3, 5 } << 100.0 << 7.0;
        QTest::newRow("one value") << QList<double> { 42 } << 99.0 << 42.0;
        QTest::newRow("ties") << QList<double> { 1, 1, 1, 9 } << 75.0 << 3.0; // rank 2.25: 1 + 0.25 * 8
    }
    void percentiles()
    {
        QFETCH(QList<double>, values);
        QFETCH(double, p);
        QFETCH(double, expected);
        std::vector<double> v(values.begin(), values.end());
        QVERIFY(std::fabs(percentile(v, p) - expected) < 1e-9);
        std::vector<float> f(values.begin(), values.end());
        const Distribution d = distributionOf(f);
        QCOMPARE(d.count, qint64(values.size()));
        std::vector<double> empty;
        QVERIFY(std::isnan(percentile(empty, 50)));
    }

    void driftByHand()
    {
        // Two bins split at the baseline's median 2.5: baseline shares 1/2, 1/2; current 1/4, 3/4.
        const Drift d = distributionShift({ 1, 2, 3, 4 }, { 1, 3, 4, 5 }, 2);
        QCOMPARE(d.bins.size(), size_t(2));
        QCOMPARE(d.bins[0].hi, 2.5);
        QCOMPARE(d.bins[1].currentShare, 0.75);
        const double psi = (0.25 - 0.5) * std::log(0.25 / 0.5) + (0.75 - 0.5) * std::log(0.75 / 0.5);
        QVERIFY(std::fabs(d.psi - psi) < 1e-12);
        QVERIFY(std::fabs(d.psi - 0.274653) < 1e-6);
        // JS divergence in bits against the mixture (0.375, 0.625).
        const double js = 0.5 * (0.5 * std::log2(0.5 / 0.375) + 0.5 * std::log2(0.5 / 0.625))
            + 0.5 * (0.25 * std::log2(0.25 / 0.375) + 0.75 * std::log2(0.75 / 0.625));
        QVERIFY(std::fabs(d.jsDistance - std::sqrt(js)) < 1e-12);
        QVERIFY(std::fabs(d.jsDistance - 0.220896) < 1e-5);
    }

    void driftEmptyBinAndIdentical()
    {
        // Every current value in the first bin: the second's share is floored for PSI only.
        const Drift d = distributionShift({ 1, 2, 3, 4 }, { 1, 1, 1, 1 }, 2);
        const double psi
            = (1 - 0.5) * std::log(1 / 0.5) + (kPsiEmptyShare - 0.5) * std::log(kPsiEmptyShare / 0.5);
        QVERIFY(std::fabs(d.psi - psi) < 1e-12);
        // Disjoint halves: JS divergence 1 - H-mixture... = 0.5*(1*log2(1/0.75)) + 0.5*(0.5*log2(0.5/0.75) +
        // 0.5*log2(0.5/0.25))
        const double js
            = 0.5 * std::log2(1 / 0.75) + 0.5 * (0.5 * std::log2(0.5 / 0.75) + 0.5 * std::log2(0.5 / 0.25));
        QVERIFY(std::fabs(d.jsDistance - std::sqrt(js)) < 1e-12);
        const Drift same
            = distributionShift({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 });
        QCOMPARE(same.bins.size(), size_t(10));
        QCOMPARE(same.psi, 0.0);
        QCOMPARE(same.jsDistance, 0.0);
    }

    void expressions()
    {
        ObjectiveSpec s = spec(QStringLiteral("p90(latency_ms) < 100 over 5m windows during 09:00-17:00"));
        QCOMPARE(s.kind, ObjectiveSpec::Kind::RequestStat);
        QCOMPARE(s.percentile, 90.0);
        QCOMPARE(s.field, QStringLiteral("latency_ms"));
        QCOMPARE(s.threshold, 100.0);
        QCOMPARE(s.windowNs, qint64(300) * 1000000000);
        QCOMPARE(s.fromMinute, 9 * 60);
        QCOMPARE(s.toMinute, 17 * 60);
        s = spec(QStringLiteral("error_rate < 1%"));
        QCOMPARE(s.kind, ObjectiveSpec::Kind::Named);
        QCOMPARE(s.threshold, 0.01);
        QVERIFY(s.percent);
        s = spec(QStringLiteral("p99(ttft_ms) <= 0.5s"));
        QCOMPARE(s.threshold, 500.0);
        QCOMPARE(s.op, ObjectiveSpec::Op::LessEqual);
        s = spec(QStringLiteral("recall >= 0.95"));
        QCOMPARE(s.field, QStringLiteral("recall"));
        QCOMPARE(s.op, ObjectiveSpec::Op::GreaterEqual);
        QVERIFY(s.holds(0.95) && !s.holds(0.94));
        s = spec(QStringLiteral("step_time regression vs baseline < 5%"));
        QCOMPARE(s.kind, ObjectiveSpec::Kind::Change);
        QVERIFY(s.increase);
        QCOMPARE(s.threshold, 0.05);
        s = spec(QStringLiteral("psi(input_tokens) < 0.2"));
        QCOMPARE(s.kind, ObjectiveSpec::Kind::Drift);
        s = spec(QStringLiteral("mean(val/loss) < 2"));
        QCOMPARE(s.kind, ObjectiveSpec::Kind::Named);
        QCOMPARE(s.stat, QStringLiteral("mean"));
        QCOMPARE(s.field, QStringLiteral("val/loss"));
        s = spec(QStringLiteral("runtime_goodput >= 0.9"));
        QCOMPARE(s.field, QStringLiteral("runtime_goodput"));
        s = spec(QStringLiteral("p99.9(itl_ms) < 50 during 22:00-06:00"));
        QCOMPARE(s.percentile, 99.9);
        QCOMPARE(s.fromMinute, 22 * 60);
        QCOMPARE(s.toMinute, 6 * 60);
    }

    void goodFiles_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("baseline");
        QTest::newRow("yaml") << QByteArray("# gates for the chat endpoint\n"
                                            "baseline: run-42\n"
                                            "objectives:\n"
                                            "  - p90(latency_ms) < 100 over 5m windows during 09:00-17:00\n"
                                            "  - \"p99(ttft_ms) < 500\"   # quoted\n"
                                            "  - name: errors\n"
                                            "    objective: error_rate < 1%\n"
                                            "    model: llama-8b\n"
                                            "  -   recall >= 0.95\n")
                              << 4 << QStringLiteral("run-42");
        QTest::newRow("yaml list at key indent")
            << QByteArray("objectives:\n- error_rate < 1%\n- p99(ttft_ms) < 500\n") << 2 << QString();
        QTest::newRow("yaml bare list") << QByteArray("- error_rate < 1%\n") << 1 << QString();
        QTest::newRow("yaml with BOM and CRLF")
            << QByteArray("\xEF\xBB\xBF"
                          "baseline: 'run 7'\r\nobjectives:\r\n- error_rate < 1%\r\n")
            << 1 << QStringLiteral("run 7");
        QTest::newRow("yaml flow list")
            << QByteArray("objectives: [error_rate < 1%, 'p99(ttft_ms) < 500']\n") << 2 << QString();
        QTest::newRow("json") << QByteArray(
            "{\"baseline\": \"7\", \"objectives\": [\"error_rate < 1%\",\n"
            "  {\"name\": \"ttft\", \"objective\": \"p99(ttft_ms) < 500\", \"endpoint\": \"/v1\"}]}")
                              << 2 << QStringLiteral("7");
    }
    void goodFiles()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, count);
        QFETCH(QString, baseline);
        ObjectivesError e;
        const auto f = parseObjectives(text, e);
        QVERIFY2(f, qPrintable(e.text(QStringLiteral("f"))));
        QCOMPARE(int(f->objectives.size()), count);
        QCOMPARE(f->baseline, baseline);
    }
    void yamlItemDetails()
    {
        ObjectivesError e;
        const auto f
            = parseObjectives(QByteArray("objectives:\n  - name: errors\n    objective: error_rate < 1%\n"
                                         "    model: llama-8b\n"),
                e);
        QVERIFY(f);
        const ObjectiveSpec &s = f->objectives[0];
        QCOMPARE(s.name, QStringLiteral("errors"));
        QCOMPARE(s.model, QStringLiteral("llama-8b"));
        QCOMPARE(s.line, 3);
        QCOMPARE(s.column, 16);
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown field")
            << QByteArray("objectives:\n  - p99(ttft_ms) < 500\n  - p90(latncy_ms) < 100\n") << 3 << 9
            << QStringLiteral("unknown request field latncy_ms");
        QTest::newRow("no operator") << QByteArray("objectives:\n  - error_rate 1%\n") << 2 << 16
                                     << QStringLiteral("expected a comparison");
        QTest::newRow("bad unit") << QByteArray("objectives:\n  - error_rate < 1ms\n") << 2 << 19
                                  << QStringLiteral("only goes with a duration field");
        QTest::newRow("bad window") << QByteArray(
            "objectives:\n  - p90(latency_ms) < 100 over five windows\n")
                                    << 2 << 32 << QStringLiteral("expected a window length");
        QTest::newRow("unknown key") << QByteArray(
            "objectives:\n  - objective: error_rate < 1%\n    modle: x\n")
                                     << 3 << 5 << QStringLiteral("unknown key modle");
        QTest::newRow("tab") << QByteArray("objectives:\n\t- error_rate < 1%\n") << 2 << 1
                             << QStringLiteral("tab");
        QTest::newRow("bad indentation")
            << QByteArray("objectives:\n  - error_rate < 1%\n      - p99(ttft_ms) < 5\n") << 3 << 7
            << QStringLiteral("unexpected indentation");
        QTest::newRow("top-level typo") << QByteArray("objective:\n  - error_rate < 1%\n") << 1 << 1
                                        << QStringLiteral("unknown key objective");
        QTest::newRow("json syntax") << QByteArray(
            "{\"objectives\": [\"error_rate < 1%\",\n  \"p99(ttft_ms) < 5\"\n")
                                     << 3 << 1 << QStringLiteral("end of sequence flow not found");
        QTest::newRow("json expression")
            << QByteArray("{\"objectives\": [\"error_rate < 1%\", \"p99(ttft_ms) <> 5\"]}") << 1 << 51
            << QStringLiteral("expected a number after <");
        QTest::newRow("empty") << QByteArray("# nothing\n") << 1 << 1 << QStringLiteral("empty");
        QTest::newRow("quoted over two lines") << QByteArray("objectives:\n  - \"error_rate\n    < 1%\"\n")
                                               << 2 << 5 << QStringLiteral("not closed on its line");
        QTest::newRow("yaml syntax") << QByteArray("objectives:\n  - [error_rate < 1%\n") << 3 << 1
                                     << QStringLiteral("end of sequence flow not found");
        QTest::newRow("duplicate key") << QByteArray("run: a\nobjectives:\n  - error_rate < 1%\nrun: b\n")
                                       << 4 << 1 << QStringLiteral("the key run appears twice");
        QTest::newRow("percentile over 100")
            << QByteArray("- p101(ttft_ms) < 5\n") << 1 << 3 << QStringLiteral("at most p100");
    }
    void badFiles()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        ObjectivesError e;
        QVERIFY(!parseObjectives(text, e));
        QVERIFY2(e.message.contains(message), qPrintable(e.message));
        QCOMPARE(e.line, line);
        QCOMPARE(e.column, column);
        QVERIFY(e.text(QStringLiteral("gates.yaml"))
                    .startsWith(QStringLiteral("gates.yaml:%1:%2: ").arg(line).arg(column)));
    }

    // The fixtures of tests/importers/vllm/data, evaluated: values worked out in the generator's terms.
    void evaluate()
    {
        QTemporaryDir dir;
        const QString ws = dir.filePath(QStringLiteral("w.plumb"));
        QVERIFY2(importIntoWorkspace(ws,
                     { kFixtures + QStringLiteral("/vllm_detailed.json"),
                         kFixtures + QStringLiteral("/requests.csv") })
                     .isEmpty(),
            "import");
        Workspace w(ws, Workspace::Role::Reader);
        ObjectivesError e;
        const auto file = parseObjectives(QByteArray("objectives:\n"
                                                     "  - p99(ttft_ms) < 300\n" // vLLM: 296
                                                     "  - median(ttft_ms) <= 150\n" // 150
                                                     "  - mean(latency_ms) < 200\n" // 228
                                                     "  - error_rate < 20%\n" // 1/6
                                                     "  - p90(itl_ms) < 40\n" // 9 gaps of ok requests
                                                     "  - runtime_goodput >= 0.9\n"),
            e);
        QVERIFY(file);
        CheckOptions o;
        o.run = QStringLiteral("vllm_detailed.json");
        const CheckReport r = evaluateObjectives(w, *file, o, builtinQuantities());
        QCOMPARE(int(r.results.size()), 6);
        QCOMPARE(r.results[0].status, ObjectiveStatus::Pass);
        QVERIFY(std::fabs(r.results[0].value - 296) < 1e-3);
        QVERIFY(std::fabs(r.results[0].margin - 4) < 1e-3);
        QVERIFY(std::fabs(r.results[1].value - 150) < 1e-3);
        QCOMPARE(r.results[1].status, ObjectiveStatus::Pass);
        QCOMPARE(r.results[2].status, ObjectiveStatus::Fail);
        QVERIFY(std::fabs(r.results[2].value - 228) < 1e-3);
        QVERIFY(std::fabs(r.results[2].margin + 28) < 1e-3);
        QVERIFY(std::fabs(r.results[3].value - 1.0 / 6) < 1e-9);
        // ok gaps (ms): 10 20 15 15 30 40 10 10 10 50 25 35 -> sorted, rank 0.9 * 11 = 9.9: 35 + 0.9 * 5
        QVERIFY(std::fabs(r.results[4].value - 39.5) < 1e-3);
        QCOMPARE(r.results[4].samples, qint64(12));
        QCOMPARE(r.results[5].status, ObjectiveStatus::NoData);
        QVERIFY(r.results[5].detail.contains(QStringLiteral("runtime_goodput")));
        QCOMPARE(r.passed, 4);
        QCOMPARE(r.failed, 1);
        QCOMPARE(r.noData, 1);

        // The request log, in 5-minute windows; the vLLM run as the baseline of a drift objective.
        const auto windows = parseObjectives(QByteArray("objectives:\n"
                                                        "  - p90(latency_ms) < 200 over 5m windows\n"
                                                        "  - p90(latency_ms) < 200 during 09:05-10:00\n"
                                                        "  - name: completions\n"
                                                        "    objective: requests >= 3\n"
                                                        "    endpoint: /v1/completions\n"
                                                        "  - psi(input_tokens) < 0.1\n"),
            e);
        QVERIFY(windows);
        o.run = QStringLiteral("data/requests.csv");
        o.baseline = QStringLiteral("vllm_detailed.json");
        const CheckReport rw = evaluateObjectives(w, *windows, o, builtinQuantities());
        // 09:00-09:05: ok latencies 120 80 250 -> rank 1.8: 120 + 0.8 * 130; 09:05-09:10: 60 90 -> 87
        QCOMPARE(rw.results[0].status, ObjectiveStatus::Fail);
        QCOMPARE(rw.results[0].windows.size(), size_t(2));
        QCOMPARE(rw.results[0].windowsBroken, qint64(1));
        QVERIFY(std::fabs(rw.results[0].value - 224) < 1e-3);
        QVERIFY(std::fabs(rw.results[0].windows[1].value - 87) < 1e-3);
        QCOMPARE(rw.results[1].status, ObjectiveStatus::Pass);
        QVERIFY(std::fabs(rw.results[1].value - 87) < 1e-3);
        QCOMPARE(rw.results[2].value, 4.0); // two llama-8b and two mistral-7b rows
        QCOMPARE(rw.results[2].status, ObjectiveStatus::Pass);
        QCOMPARE(rw.results[3].status, ObjectiveStatus::Fail); // prompts of 50-400 tokens vs 64-4096
        QVERIFY(rw.results[3].value > 0.1);

        // Unknown runs are bad input.
        o.baseline = QStringLiteral("no such run");
        QVERIFY_THROWS_EXCEPTION(
            CheckInputError, (void)evaluateObjectives(w, *windows, o, builtinQuantities()));
    }
};

QTEST_GUILESS_MAIN(TestServing)
#include "tst_serving.moc"
