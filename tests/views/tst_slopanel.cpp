// SPDX-License-Identifier: GPL-3.0-or-later
// The SLO tab on the serving fixtures: the objective table, the histograms' objective lines and the
// shaded windows, and a malformed objectives file shown with its line and column.
#include "charts/slotimechart.h"
#include "importhelpers.h"
#include "slo/slopanel.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace plumb;

class TestSloPanel : public QObject {
    Q_OBJECT
private slots:
    void showsObjectives()
    {
        QTemporaryDir dir;
        const QString ws = dir.filePath(QStringLiteral("w.plumb"));
        QVERIFY(importIntoWorkspace(
            ws, { QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/vllm/data/requests.csv") })
                    .isEmpty());
        const QString file = dir.filePath(QStringLiteral("slo.yaml"));
        QVERIFY(writeTestFile(file,
            QByteArray("objectives:\n"
                       "  - p90(latency_ms) < 200 over 5m windows\n"
                       "  - error_rate < 20%\n"
                       "  - runtime_goodput >= 0.9\n")));
        SloPanel panel;
        panel.resize(1200, 800);
        QSignalSpy loaded(&panel, &SloPanel::loaded);
        panel.setWorkspace(ws);
        panel.setObjectivesFile(file);
        QVERIFY(loaded.wait(10000));
        QTableWidget *t = panel.table();
        QCOMPARE(t->rowCount(), 3);
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("broken"));
        QCOMPARE(t->item(0, 2)->text(), QStringLiteral("224 ms")); // the worst 5-minute window
        QCOMPARE(t->item(0, 4)->text(), QStringLiteral("-24 ms"));
        QCOMPARE(t->item(1, 0)->text(), QStringLiteral("pass"));
        QCOMPARE(t->item(2, 0)->text(), QStringLiteral("no data"));
        QCOMPARE(panel.timeChart()->bands(), 1); // 09:00-09:05 broke it
        QVERIFY(panel.summaryText().contains(QStringLiteral("1 of 3 objectives hold")));

        QVERIFY(writeTestFile(file, QByteArray("objectives:\n  - p90(latncy_ms) < 200\n")));
        panel.reload();
        QVERIFY(loaded.wait(10000));
        QCOMPARE(panel.summaryText(),
            QStringLiteral("slo.yaml:2:9: unknown request field latncy_ms (latency_ms, "
                           "ttft_ms, itl_ms, tpot_ms, input_tokens, output_tokens)"));
        QCOMPARE(panel.table()->rowCount(), 0);
    }
};

QTEST_MAIN(TestSloPanel)
#include "tst_slopanel.moc"
