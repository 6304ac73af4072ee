// SPDX-License-Identifier: GPL-3.0-or-later
// The Doctor tab on generated traces: the analyses load off the GUI thread into the summary, the
// step chart and the GPU op table; the mode box switches what counts; Ctrl+C copies the table. The
// selected op's duration histogram holds every run of it; the idle, launch-delay and queue charts
// cover every stream; tables round-trip through CSV and charts export PNG and PDF; a 2-rank run of
// real traces shows both ranks with the straggler named.

#include "charts/chartexport.h"
#include "charts/histogramchart.h"
#include "charts/idlebreakdownchart.h"
#include "charts/queuelengthchart.h"
#include "charts/stepbreakdownchart.h"
#include "doctor/doctorpanel.h"
#include "doctor/kerneltablemodel.h"
#include "doctor/rankcomparisonmodel.h"
#include "importhelpers.h"
#include "opmodebox.h"
#include "tableexport.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

// One step; on stream 7, 40 launches of a templated GEMM whose durations spread over two decades
// (a comma in its name), on stream 8, 6 runs of a kernel with quotes in its name; launches queue up.
QByteArray generatedTrace()
{
    QByteArray json = "{\"traceEvents\": [\n"
                      "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,"
                      "\"tid\":1,\"ts\":0,\"dur\":20000}";
    int correlation = 0;
    auto add = [&](const QByteArray &name, int stream, qint64 launchUs, qint64 startUs, qint64 durUs) {
        ++correlation;
        json += ",\n{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
                "\"ts\":"
            + QByteArray::number(launchUs)
            + ",\"dur\":4,\"args\":{\"correlation\":" + QByteArray::number(correlation) + "}}";
        json += ",\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" + name
            + "\",\"pid\":0,\"tid\":" + QByteArray::number(stream) + ",\"ts\":" + QByteArray::number(startUs)
            + ",\"dur\":" + QByteArray::number(durUs) + ",\"args\":{\"correlation\":"
            + QByteArray::number(correlation) + ",\"stream\":" + QByteArray::number(stream) + "}}";
    };
    qint64 free = 100;
    for (int i = 0; i < 40; ++i) {
        const qint64 dur = 2 + (i * i * i) % 300;
        add("void gemm<float, 4>(float const*)", 7, 10 + 5 * i, free, dur);
        free += dur + 1;
    }
    for (int i = 0; i < 6; ++i)
        add("say \\\"hi\\\"", 8, 300 + 100 * i, 400 + 100 * i, 30 + i);
    return json + "\n]}\n";
}

// RFC 4180 as toCsv() writes it.
QList<QStringList> parseCsv(const QString &text)
{
    QList<QStringList> records;
    QStringList record;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text[i + 1] == u'"') {
                field += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            record << field;
            field.clear();
        } else if (c == u'\n') {
            record << field;
            field.clear();
            records << record;
            record.clear();
        } else if (c != u'\r') {
            field += c;
        }
    }
    return records;
}

// Every row of `view` as shown, through CSV and back: each cell equals the model's raw value.
void checkCsvRoundTrip(QTableView *view, const QList<QStringList> &records, int column, int sortRole)
{
    const QList<QStringList> parsed = parseCsv(toCsv(records));
    QCOMPARE(parsed.size(), view->model()->rowCount() + 1);
    QCOMPARE(parsed, records);
    for (int r = 0; r < view->model()->rowCount(); ++r) {
        const QVariant value = view->model()->index(r, column).data(sortRole);
        QCOMPARE(parsed[r + 1][column],
            value.typeId() == QMetaType::Double ? QString::number(value.toDouble(), 'f', 0)
                                                : value.toString());
    }
}

} // namespace

class TestDoctorPanel : public QObject {
    Q_OBJECT
    QTemporaryDir m_settings;

private slots:
    void initTestCase()
    {
        // The input-ranges field is kept in the settings: in a folder of this test's own.
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(
            QSettings::IniFormat, QSettings::UserScope, m_settings.filePath(QStringLiteral("s")));
        QSettings().clear();
    }

    // A host/launch-overhead verdict links each step it names to the call tree of that step: what the
    // host was doing while the GPU waited.
    void hostVerdictLinksCallTree()
    {
        QTemporaryDir tmp;
        const QString ws = importTestJson(tmp.path(), QStringLiteral("t.json"),
            "{\"traceEvents\": [\n"
            "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,"
            "\"ts\":0,\"dur\":100},\n"
            "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,"
            "\"ts\":100,\"dur\":100},\n"
            "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"slow_python\",\"pid\":1,\"tid\":1,"
            "\"ts\":0,\"dur\":80},\n"
            "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"slow_python\",\"pid\":1,\"tid\":1,"
            "\"ts\":100,\"dur\":80},\n"
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":80,\"dur\":20,"
            "\"args\":{\"stream\":7}},\n"
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":180,\"dur\":20,"
            "\"args\":{\"stream\":7}}\n"
            "]}\n");
        QVERIFY(!ws.isEmpty());
        DoctorPanel panel;
        QSignalSpy loaded(&panel, &DoctorPanel::loaded);
        panel.open(ws, 1, QStringLiteral("t.json"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 10000);
        QCOMPARE(panel.result().verdict.component, Verdict::Component::HostLaunch);
        QVERIFY(!panel.result().verdict.where.empty());
        QVERIFY2(panel.summaryText().contains(QStringLiteral("href=\"calltree:0\"")),
            qPrintable(panel.summaryText()));
        QSignalSpy callTree(&panel, &DoctorPanel::showCallTree);
        panel.followCallTree(0);
        QCOMPARE(callTree.size(), 1);
        const Verdict::Where &w = panel.result().verdict.where[0];
        QCOMPARE(callTree.at(0).at(0).toLongLong(), 1);
        QCOMPARE(callTree.at(0).at(1).toLongLong(), w.startNs);
        QCOMPARE(callTree.at(0).at(2).toLongLong(), w.endNs);
        QCOMPARE(callTree.at(0).at(3).toString(), w.label);
        panel.followCallTree(99); // no such place: nothing
        QCOMPARE(callTree.size(), 1);
    }

    // The step bars show step time (eight parts) by default and the GPU window (four) when asked; a
    // pattern typed into the input-ranges field makes a user's own loading range input pipeline, is
    // kept for the next panel, and one that does not compile is refused where it was typed.
    void stepTimeViewAndInputRanges()
    {
        QTemporaryDir tmp;
        const QString ws = importTestJson(tmp.path(), QStringLiteral("t.json"),
            "{\"traceEvents\": [\n"
            "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,"
            "\"ts\":0,\"dur\":100},\n"
            "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,"
            "\"ts\":100,\"dur\":100},\n"
            "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"my_loader.fetch\",\"pid\":1,\"tid\":1,"
            "\"ts\":0,\"dur\":60},\n"
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":60,\"dur\":40,"
            "\"args\":{\"stream\":7}},\n"
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":100,\"dur\":100,"
            "\"args\":{\"stream\":7}}\n"
            "]}\n");
        QVERIFY(!ws.isEmpty());
        DoctorPanel panel;
        panel.resize(1000, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy loaded(&panel, &DoctorPanel::loaded);
        panel.open(ws, 1, QStringLiteral("t.json"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 10000);
        QCOMPARE(panel.result().stepTime.steps.size(), size_t(2));
        QCOMPARE(panel.stepViewBox()->currentIndex(), 0);
        QCOMPARE(panel.chart()->barCount(), 2);
        QCOMPARE(panel.chart()->plot()->plottableCount(), 8);
        QCOMPARE(panel.chart()->plot()->yAxis->label(), QStringLiteral("step time (ms)"));
        // Step 1: the loader's 60 µs are other CPU work, then 40 µs of compute.
        QCOMPARE(panel.result().stepTime.steps[0].parts.otherCpuNs, Q_INT64_C(60000));
        QCOMPARE(panel.result().stepTime.steps[0].parts.inputPipelineNs, Q_INT64_C(0));
        QCOMPARE(panel.result().stepComponents[0], Verdict::Component::HostLaunch);
        panel.stepViewBox()->setCurrentIndex(1);
        QCOMPARE(panel.chart()->plot()->plottableCount(), 4);
        QCOMPARE(panel.chart()->plot()->yAxis->label(), QStringLiteral("GPU window (ms)"));
        panel.stepViewBox()->setCurrentIndex(0);

        panel.inputPatternEdit()->setText(QStringLiteral("^my_loader"));
        Q_EMIT panel.inputPatternEdit()->editingFinished();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 2, 10000);
        QCOMPARE(panel.result().stepTime.steps[0].parts.inputPipelineNs, Q_INT64_C(60000));
        QCOMPARE(panel.result().stepComponents[0], Verdict::Component::InputPipeline);
        QCOMPARE(QSettings().value(QStringLiteral("doctor/inputAnnotations")).toString(),
            QStringLiteral("^my_loader"));
        DoctorPanel next;
        QCOMPARE(next.inputPatternEdit()->text(), QStringLiteral("^my_loader"));

        panel.inputPatternEdit()->setText(QStringLiteral("my_loader("));
        Q_EMIT panel.inputPatternEdit()->editingFinished();
        QVERIFY(panel.inputPatternEdit()->toolTip().startsWith(QStringLiteral("Not a regular expression")));
        QTest::qWait(200);
        QCOMPARE(loaded.size(), 2); // not analysed again
        QCOMPARE(QSettings().value(QStringLiteral("doctor/inputAnnotations")).toString(),
            QStringLiteral("^my_loader"));
        QSettings().clear();
    }

    void loadsAndSwitchesMode()
    {
        QTemporaryDir tmp;
        // Two steps; the second launches an all-reduce; a memset nobody launched.
        const QString ws = importTestJson(tmp.path(), QStringLiteral("t.json"),
            "{\"traceEvents\": [\n"
            "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,"
            "\"ts\":0,\"dur\":100},\n"
            "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,"
            "\"ts\":100,\"dur\":100},\n"
            "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":"
            "10,\"dur\":5,\"args\":{\"correlation\":1}},\n"
            "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":"
            "110,\"dur\":5,\"args\":{\"correlation\":2}},\n"
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":150,\"dur\":50,"
            "\"args\":{\"correlation\":1,\"stream\":7}},\n"
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce\",\"pid\":0,\"tid\":8,\"ts\":"
            "170,\"dur\":60,\"args\":{\"correlation\":2,\"stream\":8}},\n"
            "{\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":\"Memset "
            "(Device)\",\"pid\":0,\"tid\":7,\"ts\":120,\"dur\":10,\"args\":{\"stream\":7}}\n"
            "]}\n");
        QVERIFY(!ws.isEmpty());

        DoctorPanel panel;
        panel.resize(1000, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QAbstractItemModelTester tester(
            panel.kernelModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&panel, &DoctorPanel::loaded);
        panel.open(ws, 1, QStringLiteral("t.json"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 10000);
        QCOMPARE(panel.result().overall.ops, Q_INT64_C(3));
        QCOMPARE(panel.chart()->barCount(), 2);
        QCOMPARE(panel.kernelModel()->rowCount(), 3);
        QVERIFY(panel.summaryText().contains(QStringLiteral("2 training steps")));
        // Sorted by total time, largest first, through the numbers.
        const QModelIndex top = panel.kernelProxy()->index(0, KernelTableModel::NameColumn);
        QCOMPARE(top.data().toString(), QStringLiteral("ncclKernel_AllReduce"));
        panel.kernelTable()->sortByColumn(KernelTableModel::CountColumn, Qt::AscendingOrder);
        panel.kernelTable()->sortByColumn(KernelTableModel::TotalColumn, Qt::AscendingOrder);
        QCOMPARE(panel.kernelProxy()->index(0, KernelTableModel::NameColumn).data().toString(),
            QStringLiteral("Memset (Device)"));

        // Only launched ops: the memset drops out.
        panel.modeBox()->setCurrentIndex(1);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 2, 10000);
        QCOMPARE(panel.result().overall.ops, Q_INT64_C(2));
        QCOMPARE(panel.kernelModel()->rowCount(), 2);

        // Ctrl+C: TSV with a header and raw nanoseconds.
        panel.kernelTable()->clearSelection();
        QTest::keyClick(&panel, Qt::Key_C, Qt::ControlModifier);
        const QStringList lines = QApplication::clipboard()->text().split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith(QStringLiteral("Name\tKind\tCount\tTotal (ns)")));
        QVERIFY(
            lines.join(u'\n').contains(QStringLiteral("ncclKernel_AllReduce\tcommunication\t1\t60000\t")));
    }

    // "Analysing… Cancel": the analysis stops, its result never shows, and "Analyse again" runs it.
    void cancelAndAnalyseAgain()
    {
        QTemporaryDir tmp;
        QByteArray json = "{\"traceEvents\": [\n";
        for (int i = 0; i < 20000; ++i)
            json += QByteArray(i ? ",\n" : "") + "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k"
                + QByteArray::number(i % 50) + "\",\"pid\":0,\"tid\":7,\"ts\":" + QByteArray::number(i * 10)
                + ",\"dur\":8,\"args\":{\"stream\":7}}";
        json += "\n]}\n";
        const QString ws = importTestJson(tmp.path(), QStringLiteral("k.json"), json);
        QVERIFY(!ws.isEmpty());
        DoctorPanel panel;
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QLabel *summary = nullptr;
        for (QLabel *l : panel.findChildren<QLabel *>())
            if (l->accessibleName() == QStringLiteral("Verdict"))
                summary = l;
        QVERIFY(summary);
        QSignalSpy loaded(&panel, &DoctorPanel::loaded);
        panel.open(ws, 1, QStringLiteral("k.json"));
        QVERIFY2(summary->text().contains(QStringLiteral("href=\"cancel\"")), qPrintable(summary->text()));
        Q_EMIT summary->linkActivated(QStringLiteral("cancel"));
        QVERIFY(summary->text().contains(QStringLiteral("cancelled")));
        QTest::qWait(1500); // time for the analysis to have finished, had it gone on
        QCOMPARE(loaded.size(), 0);
        QCOMPARE(panel.result().overall.ops, Q_INT64_C(0));
        QVERIFY(summary->text().contains(QStringLiteral("cancelled")));

        Q_EMIT summary->linkActivated(QStringLiteral("analyse"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 20000);
        QCOMPARE(panel.result().overall.ops, Q_INT64_C(20000));
        QVERIFY(!summary->text().contains(QStringLiteral("cancelled")));
    }

    void histogramsAndLaunchCharts()
    {
        QTemporaryDir tmp;
        const QString ws = importTestJson(tmp.path(), QStringLiteral("g.json"), generatedTrace());
        QVERIFY(!ws.isEmpty());
        DoctorPanel panel;
        panel.resize(1100, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy loaded(&panel, &DoctorPanel::loaded);
        panel.open(ws, 1, QStringLiteral("g.json"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 10000);
        QCOMPARE(panel.kernelModel()->rowCount(), 2);

        // The top op's histogram shows from the start; each row's histogram holds each of its runs.
        QCOMPARE(panel.durationChart()->histogram().total(), Q_INT64_C(40));
        for (int row = 0; row < panel.kernelProxy()->rowCount(); ++row) {
            panel.kernelTable()->setCurrentIndex(panel.kernelProxy()->index(row, 0));
            const qint64 count = panel.kernelProxy()
                                     ->index(row, KernelTableModel::CountColumn)
                                     .data(KernelTableModel::SortRole)
                                     .toLongLong();
            const Histogram &h = panel.durationChart()->histogram();
            QCOMPARE(h.total(), count);
            QVERIFY(panel.durationChart()->title().startsWith(
                panel.kernelProxy()->index(row, 0).data().toString()));
            if (count == 40) { // 2 µs to 301 µs: log bins in µs
                QVERIFY(h.logSpaced);
                QCOMPARE(
                    panel.durationChart()->timeAxisLabel(), QStringLiteral("GPU duration (µs, log scale)"));
            } else {
                QVERIFY(!h.logSpaced);
                QCOMPARE(h.counts.size() + 1, h.edges.size());
            }
        }

        // Two streams in the idle and queue charts; every launched op in the launch-delay histogram.
        const DoctorPanel::Result &r = panel.result();
        QCOMPARE(r.idle.size(), size_t(2));
        QCOMPARE(panel.idleChart()->barCount(), 2);
        QCOMPARE(panel.queueChart()->seriesCount(), 2);
        QCOMPARE(r.launch.launchedOps, Q_INT64_C(46));
        QCOMPARE(panel.launchDelayChart()->histogram().total(), Q_INT64_C(46));
        // Stream 7's 40 launches come every 5 µs while the GEMMs take up to 300 µs: they pile up.
        const auto deepest = std::max_element(r.launch.queues.begin(), r.launch.queues.end(),
            [](const auto &a, const auto &b) { return a.maxQueued < b.maxQueued; });
        QVERIFY(deepest->maxQueued >= 30);
        QCOMPARE(r.ranks.ranks.size(), size_t(0));
        QVERIFY(panel.rankTable()->isHidden());
        QCOMPARE(panel.pages()->tabText(DoctorPanel::RanksPage), QStringLiteral("Ranks"));
    }

    void tablesCopyAndExport()
    {
        QTemporaryDir tmp;
        const QString ws = importTestJson(tmp.path(), QStringLiteral("g.json"), generatedTrace());
        QVERIFY(!ws.isEmpty());
        DoctorPanel panel;
        panel.resize(1100, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy loaded(&panel, &DoctorPanel::loaded);
        panel.open(ws, 1, QStringLiteral("g.json"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 10000);
        QTableView *table = panel.kernelTable();

        // Ctrl+C in the table: every row when none is selected, else the selected ones.
        table->setFocus();
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text().split(u'\n', Qt::SkipEmptyParts).size(), 3);
        table->selectRow(1);
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        const QStringList lines = QApplication::clipboard()->text().split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[1].startsWith(table->model()->index(1, 0).data().toString() + u'\t'));

        // Export CSV: names with commas and quotes survive; numbers are the raw ns.
        QStringList menu;
        for (const QAction *a : table->actions())
            menu << a->text();
        QVERIFY(menu.contains(QStringLiteral("&Copy")));
        QVERIFY(menu.contains(QStringLiteral("&Export CSV…")));
        const QList<QStringList> records = panel.kernelModel()->records(rowsAsShown(table, true));
        checkCsvRoundTrip(table, records, KernelTableModel::NameColumn, Qt::DisplayRole);
        checkCsvRoundTrip(table, records, KernelTableModel::CountColumn, KernelTableModel::SortRole);
        checkCsvRoundTrip(table, records, KernelTableModel::TotalColumn, KernelTableModel::SortRole);
        checkCsvRoundTrip(table, records, KernelTableModel::MaxColumn, KernelTableModel::SortRole);
        QVERIFY(toCsv(records).contains(QStringLiteral("\"say \"\"hi\"\"\"")));

        // Every chart: a context menu, and PNG and PDF files.
        const QList<std::pair<QWidget *, QCustomPlot *>> charts = { { panel.chart(), panel.chart()->plot() },
            { panel.durationChart(), panel.durationChart()->plot() },
            { panel.idleChart(), panel.idleChart()->plot() },
            { panel.launchDelayChart(), panel.launchDelayChart()->plot() },
            { panel.queueChart(), panel.queueChart()->plot() } };
        int n = 0;
        for (const auto &[chart, plot] : charts) {
            const auto *plotWidget = chart->findChild<QWidget *>(QString(), Qt::FindDirectChildrenOnly);
            QVERIFY(plotWidget);
            QCOMPARE(plotWidget->contextMenuPolicy(), Qt::CustomContextMenu);
            const QString png = tmp.filePath(QStringLiteral("chart%1.png").arg(n)),
                          pdf = tmp.filePath(QStringLiteral("chart%1.pdf").arg(n));
            ++n;
            QVERIFY(exportChart(plot, png));
            QVERIFY(exportChart(plot, pdf));
            QVERIFY(!QImage(png).isNull());
            QFile f(pdf);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY(f.read(5) == "%PDF-");
        }
    }

    void twoRankRun()
    {
        const QString dir = QStringLiteral(PLUMB_SHARED_DATA "/traces/kineto");
        const QString rank0 = dir + QStringLiteral("/hta_sampled_rank-0.json.gz"),
                      rank1 = dir + QStringLiteral("/hta_sampled_rank-1.json.gz");
        if (!QFile::exists(rank0) || !QFile::exists(rank1))
            QSKIP("the shared traces are not beside the checkout");
        QTemporaryDir tmp;
        const QString ws = tmp.filePath(QStringLiteral("w.plumb"));
        const QString problems = importIntoWorkspace(ws, { rank0, rank1 });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));

        DoctorPanel panel;
        panel.resize(1100, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QAbstractItemModelTester tester(
            panel.rankModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&panel, &DoctorPanel::loaded);
        panel.open(ws, 1, QStringLiteral("hta_sampled_rank-0.json.gz"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 20000);
        QTableView *table = panel.rankTable();
        QCOMPARE(table->model()->rowCount(), 2);
        QVERIFY(!table->isHidden());
        QCOMPARE(panel.pages()->tabText(DoctorPanel::RanksPage), QStringLiteral("Ranks (2)"));
        QCOMPARE(table->model()->index(0, RankComparisonModel::RankColumn).data().toLongLong(), 0LL);
        QCOMPARE(table->model()->index(1, RankComparisonModel::RankColumn).data().toLongLong(), 1LL);
        // Rank 1 computes longest per step: named in words, in its row and above the table.
        QCOMPARE(table->model()->index(0, RankComparisonModel::NoteColumn).data().toString(),
            QStringLiteral("this trace"));
        QVERIFY(table->model()
                    ->index(1, RankComparisonModel::NoteColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("straggler")));
        QVERIFY(panel.rankSummary()->text().contains(QStringLiteral("Rank 1 is the straggler")));
        for (int r = 0; r < 2; ++r)
            QVERIFY(table->model()
                        ->index(r, RankComparisonModel::WindowColumn)
                        .data(RankComparisonModel::SortRole)
                        .toDouble()
                > 0);
        const QList<QStringList> records = panel.rankModel()->records(rowsAsShown(table, true));
        checkCsvRoundTrip(table, records, RankComparisonModel::RankColumn, RankComparisonModel::SortRole);
        checkCsvRoundTrip(table, records, RankComparisonModel::ComputeColumn, RankComparisonModel::SortRole);
        checkCsvRoundTrip(table, records, RankComparisonModel::NoteColumn, Qt::DisplayRole);
    }
};

QTEST_MAIN(TestDoctorPanel)
#include "tst_doctorpanel.moc"
