// The Doctor tab on a generated trace: the analyses load off the GUI thread into the summary, the
// step chart and the GPU op table; the mode box switches what counts; Ctrl+C copies the table.

#include "doctorpanel.h"
#include "importhelpers.h"
#include "kerneltablemodel.h"
#include "stepbreakdownchart.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

class TestDoctorPanel : public QObject {
    Q_OBJECT

private slots:
    void loadsAndSwitchesMode()
    {
        QTemporaryDir tmp;
        // Two steps; the second launches an all-reduce; a memset nobody launched.
        const QString ws = importTestJson(tmp.path(), QStringLiteral("t.json"),
                                          "{\"traceEvents\": [\n"
                "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},\n"
                "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":100},\n"
                "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":5,\"args\":{\"correlation\":1}},\n"
                "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":110,\"dur\":5,\"args\":{\"correlation\":2}},\n"
                "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":150,\"dur\":50,\"args\":{\"correlation\":1,\"stream\":7}},\n"
                "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce\",\"pid\":0,\"tid\":8,\"ts\":170,\"dur\":60,\"args\":{\"correlation\":2,\"stream\":8}},\n"
                "{\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":\"Memset (Device)\",\"pid\":0,\"tid\":7,\"ts\":120,\"dur\":10,\"args\":{\"stream\":7}}\n"
                "]}\n");
        QVERIFY(!ws.isEmpty());

        DoctorPanel panel;
        panel.resize(1000, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QAbstractItemModelTester tester(panel.kernelModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
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
        QVERIFY(lines.join(u'\n').contains(QStringLiteral("ncclKernel_AllReduce\tcommunication\t1\t60000\t")));
    }
};

QTEST_MAIN(TestDoctorPanel)
#include "tst_doctorpanel.moc"
