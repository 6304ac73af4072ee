// SPDX-License-Identifier: GPL-3.0-or-later
// The details pane: long names wrap after their separators, and what is copied from it is the text
// as written, without the break points that make them wrap.

#include "store/workspacereader.h"
#include "tracedetailswidget.h"

#include <QApplication>
#include <QClipboard>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextLayout>
#include <QtTest>

using namespace plumb;

class TestTraceDetails : public QObject {
    Q_OBJECT

private slots:
    void namesWrapAtSeparatorsAndCopyClean()
    {
        TraceInfo t;
        t.name = QStringLiteral("cloverleaf_nsys2024.5.sqlite");
        t.devices = QStringLiteral("NVIDIA A100-SXM4-80GB x4");
        t.events = 7782;
        RunInfo run;
        run.name = QStringLiteral("cloverleaf_nsys2024.5");
        SourceInfo source;
        source.name = t.name;
        source.path = QStringLiteral("/work/shared/data/traces/nsys/cloverleaf_nsys2024.5.sqlite");
        TraceDetailsWidget details;
        details.resize(230, 500);
        details.show();
        QVERIFY(QTest::qWaitForWindowExposed(&details));
        details.showTrace(t, run, &source);

        const QString text = details.plainText();
        QVERIFY2(text.startsWith(t.name), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("NVIDIA A100-SXM4-80GB x4")));
        QVERIFY(text.contains(QStringLiteral("/work/shared/data/traces/nsys")));
        QVERIFY(!text.contains(QChar(0x200B)));

        auto *view = details.findChild<QTextBrowser *>();
        QVERIFY(view);
        // The title's first line ends after a separator, not inside a word.
        QTextBlock title = view->document()->firstBlock();
        QTextLayout *layout = title.layout();
        QVERIFY(layout && layout->lineCount() >= 2);
        const QString firstLine
            = title.text().mid(layout->lineAt(0).textStart(), layout->lineAt(0).textLength());
        QVERIFY2(firstLine.endsWith(QChar(0x200B)), qPrintable(firstLine));

        view->selectAll();
        view->copy();
        const QString copied = QApplication::clipboard()->text();
        QVERIFY2(copied.startsWith(t.name), qPrintable(copied));
        QVERIFY(!copied.contains(QChar(0x200B)));
    }
};

QTEST_MAIN(TestTraceDetails)
#include "tst_tracedetails.moc"
