// SPDX-License-Identifier: GPL-3.0-or-later
// The Diff tab: on a generated pair with a known answer and on HTA's A/B pair, the panel shows what
// diffTraces() and each side's verdict say (headline figures, categories, chart, op table), lists the
// changed ops as CSV/TSV, filters and sorts them on numbers, and follows the mode box and Swap.

#include "analysis/tracediff.h"
#include "analysis/verdict.h"
#include "charts/diffcategorychart.h"
#include "charts/steptimediffchart.h"
#include "diff/diffcategorymodel.h"
#include "diff/diffopfilter.h"
#include "diff/diffopmodel.h"
#include "diff/diffpanel.h"
#include "importhelpers.h"
#include "signedformat.h"
#include "store/workspace.h"
#include "tableexport.h"
#include "timeline/timescale.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace plumb;

namespace {

constexpr int kLoadTimeoutMs = 60'000;

// One training step launching `kernels` ({name, start us, duration us}) on one stream.
QByteArray stepTrace(int stepUs, const QList<std::tuple<const char *, int, int>> &kernels)
{
    QByteArray json
        = "{\"traceEvents\": [\n{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\","
          "\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":"
        + QByteArray::number(stepUs) + "}";
    int correlation = 0;
    for (const auto &[name, ts, dur] : kernels) {
        ++correlation;
        json += ",\n{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
                "\"ts\":"
            + QByteArray::number(correlation)
            + ",\"dur\":1,\"args\":{\"correlation\":" + QByteArray::number(correlation) + "}}";
        json += ",\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" + QByteArray(name)
            + "\",\"pid\":0,\"tid\":7,\"ts\":" + QByteArray::number(ts)
            + ",\"dur\":" + QByteArray::number(dur)
            + ",\"args\":{\"correlation\":" + QByteArray::number(correlation) + ",\"stream\":7}}";
    }
    return json + "\n]}\n";
}

QStringList csvLines(const QString &csv)
{
    return csv.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
}

} // namespace

class TestDiffPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // A: gemm 50 us, relu 20 us, old 10 us. B: gemm 80 us, relu 20 us, new 30 us. Per step the
    // window grows by 50 us, all of it computation; gemm is slower, new added, old removed, relu same.
    void knownChange()
    {
        QTemporaryDir tmp;
        QVERIFY(!importTestJson(tmp.path(), QStringLiteral("a.json"),
            stepTrace(200, { { "gemm", 10, 50 }, { "relu", 60, 20 }, { "old_kernel", 80, 10 } }))
                     .isEmpty());
        const QString ws = importTestJson(tmp.path(), QStringLiteral("b.json"),
            stepTrace(300, { { "gemm", 10, 80 }, { "relu", 90, 20 }, { "new_kernel", 110, 30 } }));
        QVERIFY(!ws.isEmpty());

        DiffPanel panel;
        panel.resize(1100, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QAbstractItemModelTester opTester(
            panel.opModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(
            panel.opProxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester categoryTester(
            panel.categoryModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&panel, &DiffPanel::loaded);
        panel.open(ws, 1, QStringLiteral("a.json"), 2, QStringLiteral("b.json"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, kLoadTimeoutMs);

        const TraceDiff &d = panel.result().diff;
        QVERIFY(panel.result().error.isEmpty());
        QVERIFY(d.perStep);
        QCOMPARE(d.a.windowNs, 80'000.0);
        QCOMPARE(d.b.windowNs, 130'000.0);
        const QString headline = panel.headlineText();
        QVERIFY2(
            headline.contains(QStringLiteral("<b>130 µs</b> against <b>80.0 µs</b>")), qPrintable(headline));
        QVERIFY2(headline.contains(QStringLiteral("+50.0 µs (+62.5%)")), qPrintable(headline));
        QVERIFY2(headline.contains(QStringLiteral("+50.0 µs (+62.5%)</b>, longer.")), qPrintable(headline));
        QVERIFY2(headline.contains(QStringLiteral("Most of it is computation")), qPrintable(headline));
        QVERIFY2(headline.contains(QStringLiteral("1 added, 1 removed, 1 slower, 0 faster, 1 within 2%")),
            qPrintable(headline));

        // Categories: the window and computation grew by 50 us, nothing else moved.
        QCOMPARE(panel.categoryModel()->rowCount(), int(DiffCategoryModel::RowCount));
        QCOMPARE(panel.categoryModel()->deltaNs(DiffCategoryModel::WindowRow), 50'000.0);
        QCOMPARE(panel.categoryModel()->deltaNs(DiffCategoryModel::ComputeRow), 50'000.0);
        QCOMPARE(panel.categoryModel()->deltaNs(DiffCategoryModel::IdleRow), 0.0);
        QCOMPARE(panel.chart()->valuesMs(), (std::vector<double> { 0.05, 0.05, 0.0, 0.0, 0.0 }));

        // The step time leads: 200 -> 300 µs a step, the step time's bar first, then the parts.
        QVERIFY2(headline.startsWith(QStringLiteral("<b>Step time 0.200 → 0.300 ms per step (5000 → 3333 "
                                                    "steps/s): B is 50.0% slower.</b>")),
            qPrintable(headline));
        QVERIFY2(headline.indexOf(QStringLiteral("Step time")) < headline.indexOf(QStringLiteral("Verdict:")),
            qPrintable(headline));
        QVERIFY2(
            headline.indexOf(QStringLiteral("Verdict:")) < headline.indexOf(QStringLiteral("GPU window")),
            qPrintable(headline));
        const std::vector<double> &stepBars = panel.stepTimeChart()->valuesMs();
        QCOMPARE(stepBars.size(), size_t(1 + kStepTimePartCount));
        QCOMPARE(stepBars.front(), 0.1);
        QCOMPARE(panel.stepTimeChart()->names().front(), QStringLiteral("step time"));
        QVERIFY(panel.stepTimeChart()->isVisible());
        QCOMPARE(panel.stepTimeChart()->names().at(1), stepTimePartName(d.stepComponents.front().part));

        // The changed ops, largest change first (ties by name), raw ns in the CSV.
        QCOMPARE(csvLines(panel.opCsv()),
            (QStringList {
                QStringLiteral(
                    "Name,Kind,Change,Count A,Count B,Total A (ns),Total B (ns),Delta (ns),Delta (%)"),
                QStringLiteral("gemm,computation,slower,1,1,50000.0,80000.0,30000.0,60.000"),
                QStringLiteral("new_kernel,computation,added,0,1,0.0,30000.0,30000.0,"),
                QStringLiteral("old_kernel,computation,removed,1,0,10000.0,0.0,-10000.0,-100.000") }));
        panel.shownBox()->setCurrentIndex(panel.shownBox()->findData(int(DiffOpFilter::Shown::All)));
        QCOMPARE(panel.opProxy()->rowCount(), 4);
        panel.shownBox()->setCurrentIndex(panel.shownBox()->findData(int(DiffOpFilter::Shown::Removed)));
        QCOMPARE(panel.opProxy()->rowCount(), 1);
        QCOMPARE(panel.opProxy()->index(0, DiffOpModel::NameColumn).data().toString(),
            QStringLiteral("old_kernel"));
        panel.shownBox()->setCurrentIndex(0);

        // Sorting on numbers: the relative change puts the added op (+infinity) first.
        panel.opTable()->sortByColumn(DiffOpModel::DeltaPercentColumn, Qt::DescendingOrder);
        QCOMPARE(panel.opProxy()->index(0, DiffOpModel::NameColumn).data().toString(),
            QStringLiteral("new_kernel"));
        QCOMPARE(panel.opProxy()->index(0, DiffOpModel::DeltaPercentColumn).data().toString(),
            QStringLiteral("new"));
        QCOMPARE(panel.opProxy()->index(2, DiffOpModel::NameColumn).data().toString(),
            QStringLiteral("old_kernel"));

        // Ctrl+C on the op table: the selected row as TSV under a header.
        panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        panel.opTable()->setFocus();
        panel.opTable()->selectRow(2);
        QApplication::clipboard()->clear();
        QTest::keyClick(panel.opTable(), Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text(),
            QStringLiteral(
                "Name\tKind\tChange\tCount A\tCount B\tTotal A (ns)\tTotal B (ns)\tDelta (ns)\tDelta (%)\n"
                "old_kernel\tcomputation\tremoved\t1\t0\t10000.0\t0.0\t-10000.0\t-100.000\n"));
        // The category table copies too, through its context menu's action.
        QList<QAction *> actions = panel.categoryTable()->actions();
        QCOMPARE(actions.size(), 3); // Copy, Copy as CSV, Export CSV…
        panel.categoryTable()->clearSelection();
        actions.front()->trigger();
        QCOMPARE(QApplication::clipboard()->text().count(u'\n'), 1 + int(DiffCategoryModel::RowCount));

        // Swap: B becomes the baseline, every change changes sign.
        panel.swap();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 2, kLoadTimeoutMs);
        QCOMPARE(panel.baselineId(), Q_INT64_C(2));
        QCOMPARE(panel.result().diff.windowDeltaNs(), -50'000.0);
        QVERIFY2(panel.headlineText().contains(QStringLiteral("B is 33.3% faster")),
            qPrintable(panel.headlineText()));
    }

    // HTA's A/B pair: the panel's figures are diffTraces()'s and diagnose()'s, in both modes.
    // "Comparing… Cancel": nothing of the comparison shows; "Compare again" runs it.
    void cancelAndCompareAgain()
    {
        QTemporaryDir tmp;
        QVERIFY(!importTestJson(tmp.path(), QStringLiteral("a.json"), stepTrace(200, { { "gemm", 10, 50 } }))
                     .isEmpty());
        const QString ws
            = importTestJson(tmp.path(), QStringLiteral("b.json"), stepTrace(300, { { "gemm", 10, 80 } }));
        QVERIFY(!ws.isEmpty());
        DiffPanel panel;
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy loaded(&panel, &DiffPanel::loaded);
        panel.open(ws, 1, QStringLiteral("a.json"), 2, QStringLiteral("b.json"));
        QLabel *headline = nullptr;
        for (QLabel *l : panel.findChildren<QLabel *>())
            if (l->text().contains(QStringLiteral("href=\"cancel\"")))
                headline = l;
        QVERIFY(headline);
        Q_EMIT headline->linkActivated(QStringLiteral("cancel"));
        QVERIFY(headline->text().contains(QStringLiteral("cancelled")));
        QTest::qWait(1000);
        QCOMPARE(loaded.size(), 0);
        QVERIFY(headline->text().contains(QStringLiteral("cancelled")));
        Q_EMIT headline->linkActivated(QStringLiteral("compare"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, kLoadTimeoutMs);
        QVERIFY2(panel.headlineText().contains(QStringLiteral("B is 50.0% slower")),
            qPrintable(panel.headlineText()));
    }

    void htaPair()
    {
        const QString data = QStringLiteral(PLUMB_SHARED_DATA "/traces/kineto/");
        const QString a = data + QStringLiteral("hta_trace_diff_control.json.gz"),
                      b = data + QStringLiteral("hta_trace_diff_test.json.gz");
        if (!QFileInfo::exists(a) || !QFileInfo::exists(b))
            QSKIP("../shared/data is absent (it sits beside the checkout)");
        QTemporaryDir tmp;
        const QString wsPath = tmp.filePath(QStringLiteral("w.plumb"));
        const QString problems = importIntoWorkspace(wsPath, { a, b });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));

        DiffPanel panel;
        panel.resize(1200, 800);
        panel.show();
        QAbstractItemModelTester opTester(
            panel.opModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&panel, &DiffPanel::loaded);
        panel.open(wsPath, 1, QStringLiteral("control"), 2, QStringLiteral("test"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, kLoadTimeoutMs);

        for (const auto mode : { TemporalBreakdown::Mode::EveryOp, TemporalBreakdown::Mode::LinkedOnly }) {
            if (mode == TemporalBreakdown::Mode::LinkedOnly) {
                panel.modeBox()->setCurrentIndex(1);
                QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 2, kLoadTimeoutMs);
            }
            Workspace ws(wsPath, Workspace::Role::Reader);
            const TraceDiff expected = diffTraces(ws, 1, 2, mode);
            const TraceDiff &d = panel.result().diff;
            QVERIFY(panel.result().error.isEmpty());
            QVERIFY(d.perStep);
            QCOMPARE(d.a.steps, 6);
            QCOMPARE(d.b.steps, 6);
            QCOMPARE(d.a.windowNs, expected.a.windowNs);
            QCOMPARE(d.b.windowNs, expected.b.windowNs);
            QCOMPARE(d.ops.size(), expected.ops.size());

            // The headline's figures are the diff's.
            const QString headline = panel.headlineText();
            for (const QString &figure : { formatDuration(std::llround(expected.a.windowNs)),
                     formatDuration(std::llround(expected.b.windowNs)),
                     signedDuration(expected.windowDeltaNs()),
                     signedPercent(expected.windowDeltaNs() / expected.a.windowNs) })
                QVERIFY2(
                    headline.contains(figure), qPrintable(figure + QStringLiteral(" not in ") + headline));
            QVERIFY(headline.contains(expected.windowDeltaNs() > 0 ? QStringLiteral("</b>, longer.")
                                                                   : QStringLiteral("</b>, shorter.")));

            // The categories and the chart add up to the window's change.
            double sum = 0;
            for (int row = DiffCategoryModel::ComputeRow; row < DiffCategoryModel::RowCount; ++row)
                sum += panel.categoryModel()->deltaNs(row);
            QVERIFY(std::abs(sum - expected.windowDeltaNs()) < 1.0);
            QCOMPARE(panel.categoryModel()->valueA(DiffCategoryModel::ComputeRow), expected.a.computeNs);
            QCOMPARE(panel.categoryModel()->valueB(DiffCategoryModel::IdleRow), expected.b.idleNs);
            QCOMPARE(panel.chart()->valuesMs().front(), expected.windowDeltaNs() / 1e6);

            // The step time leads (about 77.5 -> 124.1 ms a step: slower), its chart's parts add up.
            QVERIFY2(headline.startsWith(QStringLiteral("<b>Step time 77.53 → 124.1 ms per step")),
                qPrintable(headline));
            QVERIFY2(headline.contains(QStringLiteral("B is 60.1% slower")), qPrintable(headline));
            const std::vector<double> &stepBars = panel.stepTimeChart()->valuesMs();
            QCOMPARE(stepBars.size(), size_t(1 + kStepTimePartCount));
            QCOMPARE(stepBars.front(), expected.stepTimeDeltaNs() / 1e6);
            double parts = 0;
            for (size_t i = 1; i < stepBars.size(); ++i)
                parts += stepBars[i];
            QVERIFY(std::abs(parts - stepBars.front()) < 1e-6);

            // Each side's verdict, and the sentence naming both.
            const Verdict va = diagnose(ws, 1, mode), vb = diagnose(ws, 2, mode);
            QCOMPARE(panel.result().diff.a.verdict.component, va.component);
            QCOMPARE(panel.result().diff.b.verdict.component, vb.component);
            QVERIFY(headline.contains(componentName(va.component).toHtmlEscaped()));
            QVERIFY(headline.contains(componentName(vb.component).toHtmlEscaped()));
            QVERIFY(panel.verdictText().contains(vb.headline.toHtmlEscaped()));

            // The CSV lists exactly the ops that changed, in the diff's order, with its numbers.
            QList<const TraceDiff::OpDelta *> changed;
            for (const TraceDiff::OpDelta &op : expected.ops)
                if (op.change() != TraceDiff::OpDelta::Change::Same)
                    changed << &op;
            QVERIFY(!changed.isEmpty());
            const QStringList lines = csvLines(panel.opCsv());
            QCOMPARE(lines.size(), 1 + changed.size());
            for (int i = 0; i < changed.size(); ++i) {
                const TraceDiff::OpDelta &op = *changed[i];
                const QStringList row
                    = panel.opModel()
                          ->records({ panel.opProxy()->mapToSource(panel.opProxy()->index(i, 0)).row() })
                          .at(1);
                QCOMPARE(row.at(0), op.name);
                QCOMPARE(row.at(2), DiffOpModel::changeName(op.change()));
                QCOMPARE(row.at(5).toDouble(), std::round(op.totalA * 10) / 10);
                QCOMPARE(row.at(6).toDouble(), std::round(op.totalB * 10) / 10);
                QCOMPARE(lines.at(i + 1), toCsv({ row }).trimmed());
            }
        }
    }
};

QTEST_MAIN(TestDiffPanel)
#include "tst_diffpanel.moc"
