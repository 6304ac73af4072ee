// SPDX-License-Identifier: GPL-3.0-or-later
// Hugging Face Trainer states against gen_fixtures.py's output and expectations: an output folder
// with two checkpoints and the final state (each logged value stored once, whatever the order the
// files come in; NaN and Infinity words read as numbers; params from the newest state), an HPO
// trial's trial_params, sniffing, and broken input (a clear error, the workspace unchanged).

#include "builtinimporters.h"
#include "importhelpers.h"
#include "ingest/importerregistry.h"
#include "ingest/inputfile.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace plumb;

namespace {

const QString kData = QStringLiteral(PLUMB_TEST_DATA);

QStringList linesOf(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    lines.removeFirst(); // the header
    return lines;
}

// "run,key,step,value" rows of the workspace, the run named as folderRun names it.
QStringList storedPoints(SqliteDb &db)
{
    SqliteStmt st(db,
        "SELECT r.name, s.str, m.step, m.value FROM metric m JOIN run r ON r.id = m.run_id "
        "JOIN string s ON s.id = m.key_id");
    QStringList rows;
    while (st.step())
        rows << QStringLiteral("%1,%2,%3,%4")
                    .arg(st.columnText(0), st.columnText(1))
                    .arg(st.columnInt(2))
                    .arg(st.columnIsNull(3) ? QStringLiteral("nan")
                                            : QString::number(st.columnDouble(3), 'g', 17));
    return rows;
}

// Rows equal when run, key and step are and the values agree to 1e-8 (the CSV holds 9 digits).
void comparePoints(QStringList actual, QStringList expected)
{
    QCOMPARE(actual.size(), expected.size());
    auto key = [](const QString &row) { return row.section(QLatin1Char(','), 0, 2); };
    auto byKey
        = [&](const QString &a, const QString &b) { return key(a) < key(b) || (key(a) == key(b) && a < b); };
    std::sort(actual.begin(), actual.end(), byKey);
    std::sort(expected.begin(), expected.end(), byKey);
    for (qsizetype i = 0; i < actual.size(); ++i) {
        QCOMPARE(key(actual[i]), key(expected[i]));
        const QString a = actual[i].section(QLatin1Char(','), 3),
                      e = expected[i].section(QLatin1Char(','), 3);
        const double av = a.toDouble(), ev = e == QLatin1String("inf") ? HUGE_VAL : e.toDouble();
        if (e == QLatin1String("nan"))
            QVERIFY2(a == QLatin1String("nan"), qPrintable(actual[i]));
        else
            QVERIFY2(av == ev || std::abs(av - ev) <= 1e-8 * std::abs(ev),
                qPrintable(actual[i] + QStringLiteral(" vs ") + e));
    }
}

QStringList storedParams(SqliteDb &db)
{
    SqliteStmt st(
        db, "SELECT r.name, p.key, p.value FROM param p JOIN run r ON r.id = p.run_id ORDER BY 1, 2");
    QStringList rows;
    while (st.step())
        rows << st.columnText(0) + QLatin1Char(',') + st.columnText(1) + QLatin1Char(',') + st.columnText(2);
    return rows;
}

} // namespace

class TestHfTrainerImporter : public QObject {
    Q_OBJECT

private slots:
    void sniffing()
    {
        ImporterRegistry registry;
        registerBuiltinImporters(registry);
        for (const char *f : { "out/bert-sst2/trainer_state.json",
                 "out/bert-sst2/checkpoint-20/trainer_state.json", "out/hpo-trial-3/trainer_state.json" }) {
            const QString path = kData + QLatin1Char('/') + QLatin1String(f);
            const Importer *imp
                = registry.find(InputFile::peek(path, 64 * 1024), QStringLiteral("trainer_state.json"));
            QVERIFY2(imp && imp->id() == QLatin1String("hf-trainer"), f);
            // Renamed: still the Trainer's state by its members.
            imp = registry.find(InputFile::peek(path, 64 * 1024), QStringLiteral("state_copy.json"));
            QVERIFY2(imp && imp->id() == QLatin1String("hf-trainer"), f);
        }
    }

    // The output folder, and the same files in the other order: each logged value once; params from
    // the final state, never set back by a checkpoint read after it.
    void outputFolder_data()
    {
        QTest::addColumn<QStringList>("files");
        const QString root = kData + QStringLiteral("/out/bert-sst2/");
        QTest::newRow("folder") << QStringList { kData + QStringLiteral("/out/bert-sst2") };
        QTest::newRow("final first") << QStringList { root + QStringLiteral("trainer_state.json"),
            root + QStringLiteral("checkpoint-40/trainer_state.json"),
            root + QStringLiteral("checkpoint-20/trainer_state.json") };
    }
    void outputFolder()
    {
        QFETCH(QStringList, files);
        QTemporaryDir tmp;
        const QString ws = tmp.filePath(QStringLiteral("w.plumb"));
        QVERIFY2(importFoldersIntoWorkspace(ws, files).isEmpty(), qPrintable(files.join(QLatin1Char(' '))));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM run"), 1);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM source"), 3);
        comparePoints(storedPoints(w.db()), linesOf(kData + QStringLiteral("/bert-sst2.points.csv")));
        QCOMPARE(storedParams(w.db()), linesOf(kData + QStringLiteral("/bert-sst2.params.csv")));
        // The fp16 overflow at step 15 is NaN, the blow-up at 50 infinite; both steps kept.
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric m JOIN string s ON s.id = m.key_id WHERE "
                                 "s.str = 'train/grad_norm' AND ((m.step = 15 AND m.value IS NULL) OR "
                                 "(m.step = 50 AND m.value > 1e308))"),
            2);
        // Each checkpoint's values were stored from whichever file came first, and skipped in the others.
        QCOMPARE(w.db().queryInt("SELECT sum(count) FROM diagnostic WHERE code = 'points-imported-before'"),
            w.db().queryInt("SELECT (SELECT count(*) FROM metric WHERE step <= 20) + "
                            "(SELECT count(*) FROM metric WHERE step <= 40)"));
    }

    void hpoTrial()
    {
        QTemporaryDir tmp;
        const QString ws = tmp.filePath(QStringLiteral("w.plumb"));
        QVERIFY(importIntoWorkspace(ws, { kData + QStringLiteral("/out/hpo-trial-3/trainer_state.json") })
                    .isEmpty());
        Workspace w(ws, Workspace::Role::Reader);
        comparePoints(storedPoints(w.db()), linesOf(kData + QStringLiteral("/hpo-trial-3.points.csv")));
        QCOMPARE(storedParams(w.db()), linesOf(kData + QStringLiteral("/hpo-trial-3.params.csv")));
    }

    // An entry without a step (or not an object) is skipped and counted; the others are kept.
    void entryWithoutStep()
    {
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("trainer_state.json"));
        QVERIFY(writeTestFile(file,
            QByteArray("{\"global_step\": 2, \"log_history\": [{\"loss\": 0.5, \"step\": 1}, "
                       "{\"loss\": 0.4}, 7, {\"loss\": 0.3, \"step\": \"x\"}, "
                       "{\"loss\": 0.2, \"step\": 2}], \"max_steps\": 2}")));
        const QString ws = tmp.filePath(QStringLiteral("w.plumb"));
        QVERIFY(importIntoWorkspace(ws, { file }).isEmpty());
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric"), 2);
        QCOMPARE(w.db().queryInt("SELECT skipped_count FROM source"), 3);
        QCOMPARE(w.db().queryInt("SELECT count FROM diagnostic WHERE code = 'entry-without-step'"), 3);
    }

    // A broken file that also holds NaN words: the byte named is the file's, not the quoted text's.
    void errorOffsetPastNanWords()
    {
        const QByteArray bytes(
            "{\"global_step\": 2, \"log_history\": [{\"grad_norm\": NaN, \"loss\": -Infinity, "
            "\"step\": 1}, {\"loss\": 0.4, \"step\" }], \"max_steps\": 2}");
        QByteArray same = bytes; // the same length, valid numbers where the words are
        same.replace("NaN", "1.0").replace("-Infinity", "-10000000");
        QJsonParseError expected;
        QJsonDocument::fromJson(same, &expected);
        QVERIFY(expected.error != QJsonParseError::NoError);
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("trainer_state.json"));
        QVERIFY(writeTestFile(file, bytes));
        const QString error = importIntoWorkspace(tmp.filePath(QStringLiteral("w.plumb")), { file });
        QVERIFY2(error.contains(QStringLiteral("at byte %1)").arg(expected.offset)), qPrintable(error));
    }

    void brokenInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("truncated") << QByteArray(
            "{\n  \"global_step\": 5,\n  \"log_history\": [\n    {\"loss\": 0.5, \"step\"")
                                   << QStringLiteral("is not valid JSON");
        QTest::newRow("log_history not a list")
            << QByteArray("{\"global_step\": 5, \"log_history\": {}, \"max_steps\": 5}")
            << QStringLiteral("has no log_history list");
    }
    void brokenInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("trainer_state.json"));
        QVERIFY(writeTestFile(file, bytes));
        const QString ws = tmp.filePath(QStringLiteral("w.plumb"));
        const QString error = importIntoWorkspace(ws, { file });
        QVERIFY2(error.contains(message), qPrintable(error));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM run"), 0);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric"), 0);
    }
};

QTEST_GUILESS_MAIN(TestHfTrainerImporter)
#include "tst_hftrainerimporter.moc"
