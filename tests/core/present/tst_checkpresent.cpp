// SPDX-License-Identifier: GPL-3.0-or-later
// `plumb check` as core renders it (present/checkpresent.h), on the vLLM serving fixtures of the importer
// tests (p99 TTFT 296 ms, mean latency 228 ms over the run's requests): the objectives file read, runs
// selected, the plumb.check/1 JSON, the text table and the JUnit XML.
#include "importhelpers.h"
#include "present/checkpresent.h"
#include "store/workspace.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace plumb;

namespace {

const QByteArray kObjectives = "run: vllm_detailed.json\n"
                               "objectives:\n"
                               "  - p99(ttft_ms) < 300\n"
                               "  - name: mean latency\n"
                               "    objective: mean(latency_ms) < 200\n"
                               "  - runtime_goodput >= 0.9\n";

} // namespace

class TestCheckPresent : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_ws, m_file;

    CheckPresentation check(bool allowMissing, const CheckOptions &options = {})
    {
        QString error;
        const std::optional<ObjectivesFile> file = readObjectivesFile(m_file, error);
        if (!file)
            qFatal("%s", qPrintable(error));
        Workspace ws(m_ws, Workspace::Role::Reader);
        return checkObjectives(ws, *file, m_file, options, allowMissing);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_ws = m_dir.filePath(QStringLiteral("w.plumb"));
        const QString data = QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/vllm/data/");
        const QString problems = importIntoWorkspace(
            m_ws, { data + QStringLiteral("vllm_detailed.json"), data + QStringLiteral("requests.csv") });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        m_file = m_dir.filePath(QStringLiteral("slo.yaml"));
        QVERIFY(writeTestFile(m_file, kObjectives));
    }

    void json()
    {
        const CheckPresentation p = check(false);
        QVERIFY(p.broken());
        const QJsonObject o = checkJson(p);
        QCOMPARE(o.value(QStringLiteral("schema")).toString(), QStringLiteral("plumb.check/1"));
        QCOMPARE(o.value(QStringLiteral("objectives_file")).toString(), m_file);
        QCOMPARE(o.value(QStringLiteral("run_name")).toString(), QStringLiteral("vllm_detailed.json"));
        QCOMPARE(o.value(QStringLiteral("run")).toInteger(), p.report.runId);
        QVERIFY(p.report.runId > 0);
        QVERIFY(!o.contains(QStringLiteral("baseline")));
        QCOMPARE(o.value(QStringLiteral("passed")).toInt(), 1);
        QCOMPARE(o.value(QStringLiteral("failed")).toInt(), 1);
        QCOMPARE(o.value(QStringLiteral("no_data")).toInt(), 1);
        QCOMPARE(o.value(QStringLiteral("ok")).toBool(), false);
        const QJsonArray results = o.value(QStringLiteral("results")).toArray();
        QCOMPARE(results.size(), 3);
        const QJsonObject p99 = results[0].toObject();
        QCOMPARE(p99.value(QStringLiteral("status")).toString(), QStringLiteral("pass"));
        QCOMPARE(p99.value(QStringLiteral("line")).toInt(), 3);
        QCOMPARE(p99.value(QStringLiteral("unit")).toString(), QStringLiteral("ms"));
        QCOMPARE(p99.value(QStringLiteral("threshold")).toDouble(), 300.0);
        QVERIFY(qAbs(p99.value(QStringLiteral("value")).toDouble() - 296) < 0.5);
        QVERIFY(qAbs(p99.value(QStringLiteral("margin")).toDouble() - 4) < 0.5);
        const QJsonObject mean = results[1].toObject();
        QCOMPARE(mean.value(QStringLiteral("name")).toString(), QStringLiteral("mean latency"));
        QCOMPARE(
            mean.value(QStringLiteral("objective")).toString(), QStringLiteral("mean(latency_ms) < 200"));
        QCOMPARE(mean.value(QStringLiteral("status")).toString(), QStringLiteral("fail"));
        QVERIFY(mean.value(QStringLiteral("margin")).toDouble() < -27);
        const QJsonObject missing = results[2].toObject();
        QCOMPARE(missing.value(QStringLiteral("status")).toString(), QStringLiteral("no data"));
        QVERIFY(!missing.contains(QStringLiteral("value")));
        QVERIFY(!missing.contains(QStringLiteral("margin")));
        // --allow-missing: the missing data no longer breaks the gate, the broken objective still does.
        QCOMPARE(checkJson(check(true)).value(QStringLiteral("ok")).toBool(), false);
    }

    void text()
    {
        const QString text = checkText(check(true));
        const QStringList lines = text.split(u'\n');
        QCOMPARE(lines[0], QStringLiteral("Objectives of slo.yaml on run vllm_detailed.json"));
        QVERIFY2(lines.contains(QStringLiteral(
                     "pass     p99(ttft_ms) < 300            296 ms        300 ms         +4 ms")),
            qPrintable(text));
        QVERIFY2(lines.contains(QStringLiteral(
                     "FAIL     mean latency                  228 ms        200 ms        -28 ms")),
            qPrintable(text));
        QVERIFY(
            text.endsWith(QStringLiteral("\n3 objectives: 1 hold, 1 broken, 1 without data (allowed)\n")));
    }

    void junit()
    {
        const QString strict = QString::fromUtf8(checkJUnit(check(false)));
        QVERIFY2(strict.contains(
                     QStringLiteral("<testsuite name=\"slo.yaml\" tests=\"3\" failures=\"2\" errors=\"0\" "
                                    "skipped=\"0\">")),
            qPrintable(strict));
        QVERIFY(
            strict.contains(QStringLiteral("<failure type=\"broken\" message=\"mean(latency_ms) &lt; 200: "
                                           "measured 228 ms, margin -28 ms\">")));
        QVERIFY(strict.contains(QStringLiteral("<failure type=\"no-data\" message=\"no data: ")));
        const QString allowed = QString::fromUtf8(checkJUnit(check(true)));
        QVERIFY(allowed.contains(QStringLiteral("failures=\"1\" errors=\"0\" skipped=\"1\"")));
        QVERIFY(allowed.contains(QStringLiteral("<skipped message=\"no data: ")));
        QVERIFY(!allowed.contains(QStringLiteral("type=\"no-data\"")));
        for (const QString &xml : { strict, allowed }) {
            QXmlStreamReader reader(xml);
            int cases = 0;
            while (!reader.atEnd())
                cases += reader.readNext() == QXmlStreamReader::StartElement
                    && reader.name() == QLatin1String("testcase");
            QVERIFY2(!reader.hasError(), qPrintable(reader.errorString()));
            QCOMPARE(cases, 3);
        }
    }

    // Names and details full of what XML 1.0 cannot hold (C0 controls, U+FFFF, a lone surrogate) and of what
    // it must escape: a document that parses, with those characters replaced by U+FFFD.
    void junitForbiddenCharacters()
    {
        CheckPresentation p;
        p.objectivesPath = QStringLiteral("/tmp/slo\x01<&>.yaml");
        ObjectiveResult r;
        r.spec.name = QStringLiteral("p99 \x01\x02\x1f\"ttft\" <&> \t ok");
        r.spec.name += QChar(0xFFFF);
        r.spec.name += QChar(0xD800);
        r.spec.name += QStringLiteral(" \U0001F600");
        r.spec.text = r.spec.name;
        r.status = ObjectiveStatus::Fail;
        r.detail = QStringLiteral("bell \x07 escape \x1b end");
        p.report.results.push_back(r);
        p.report.failed = 1;
        const QByteArray xml = checkJUnit(p);
        QVERIFY(!xml.contains('\x01') && !xml.contains('\x07') && !xml.contains('\x1b'));
        QXmlStreamReader reader(xml);
        QString name, detail;
        while (!reader.atEnd()) {
            if (reader.readNext() != QXmlStreamReader::StartElement)
                continue;
            if (reader.name() == QLatin1String("testcase"))
                name = reader.attributes().value(QLatin1String("name")).toString();
            else if (reader.name() == QLatin1String("failure"))
                detail = reader.readElementText();
        }
        QVERIFY2(!reader.hasError(),
            qPrintable(reader.errorString() + QLatin1Char('\n') + QString::fromUtf8(xml)));
        const QString r3 = QString(3, QChar::ReplacementCharacter);
        QCOMPARE(name,
            QStringLiteral("p99 ") + r3 + QStringLiteral("\"ttft\" <&> \t ok")
                + QString(2, QChar::ReplacementCharacter) + QStringLiteral(" \U0001F600"));
        QCOMPARE(detail,
            QStringLiteral("bell ") + QChar(QChar::ReplacementCharacter) + QStringLiteral(" escape ")
                + QChar(QChar::ReplacementCharacter) + QStringLiteral(" end"));
    }

    void badInput()
    {
        QString error;
        QVERIFY(!readObjectivesFile(m_dir.filePath(QStringLiteral("none.yaml")), error));
        QVERIFY2(error.startsWith(QStringLiteral("cannot read the objectives file ")), qPrintable(error));
        const QString bad = m_dir.filePath(QStringLiteral("bad.yaml"));
        QVERIFY(writeTestFile(bad, "objectives:\n  - p90(latncy_ms) < 100\n"));
        QVERIFY(!readObjectivesFile(bad, error));
        QVERIFY2(error.contains(QStringLiteral("bad.yaml:2:")), qPrintable(error));
        CheckOptions options;
        options.baseline = QStringLiteral("nosuchrun");
        QVERIFY_THROWS_EXCEPTION(CheckInputError, check(false, options));
        try {
            (void)check(false, options);
        } catch (const CheckInputError &e) {
            QCOMPARE(e.message, QStringLiteral("no run nosuchrun (plumb ls lists them)"));
        }
    }
};

QTEST_GUILESS_MAIN(TestCheckPresent)
#include "tst_checkpresent.moc"
