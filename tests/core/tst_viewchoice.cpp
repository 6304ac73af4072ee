// SPDX-License-Identifier: GPL-3.0-or-later
// The view the window opens after an import (chooseView): one row per kind of input on its own and
// per mixed drop, checking the precedence traces > serving > lifecycle > metrics > lineage, the
// Diff for a before/after pair of traces (and not for two ranks of one run), and "stay" for nothing.
#include "session/viewchoice.h"

#include <QtTest>

using namespace plumb;
using View = ViewChoice::View;
using Trace = ImportContent::Trace;

Q_DECLARE_METATYPE(ImportContent)
Q_DECLARE_METATYPE(ViewChoice)

namespace {

ViewChoice choice(
    View view, int64_t trace = -1, int64_t baseline = -1, QList<int64_t> runs = {}, int64_t node = -1)
{
    ViewChoice c;
    c.view = view;
    c.traceId = trace;
    c.baselineTraceId = baseline;
    c.runIds = std::move(runs);
    c.nodeId = node;
    return c;
}

QString describe(const ViewChoice &c)
{
    static const char *const names[]
        = { "None", "Doctor", "Diff", "Slo", "Goodput", "Experiments", "Lineage" };
    QStringList runs;
    for (int64_t r : c.runIds) {
        runs << QString::number(r);
    }
    return QStringLiteral("%1 trace=%2 baseline=%3 runs=[%4] node=%5")
        .arg(QLatin1String(names[int(c.view)]))
        .arg(c.traceId)
        .arg(c.baselineTraceId)
        .arg(runs.join(QLatin1Char(',')))
        .arg(c.nodeId);
}

ImportContent traces(QList<Trace> t)
{
    ImportContent c;
    c.traces = std::move(t);
    return c;
}

ImportContent serving(QList<int64_t> runs, int64_t requests)
{
    ImportContent c;
    c.servingRuns = std::move(runs);
    c.servingRequests = requests;
    return c;
}

ImportContent lifecycle(QList<int64_t> runs, int64_t events)
{
    ImportContent c;
    c.lifecycleRuns = std::move(runs);
    c.lifecycleEvents = events;
    return c;
}

ImportContent metrics(QList<int64_t> runs)
{
    ImportContent c;
    c.metricRuns = std::move(runs);
    return c;
}

ImportContent lineage(QList<int64_t> nodes)
{
    ImportContent c;
    c.lineageNodes = std::move(nodes);
    return c;
}

// Everything of `b` added to `a`: a mixed drop.
ImportContent operator+(ImportContent a, const ImportContent &b)
{
    a.traces += b.traces;
    a.metricRuns += b.metricRuns;
    a.lineageNodes += b.lineageNodes;
    a.servingRuns += b.servingRuns;
    a.servingRequests += b.servingRequests;
    a.lifecycleRuns += b.lifecycleRuns;
    a.lifecycleEvents += b.lifecycleEvents;
    return a;
}

} // namespace

class TestViewChoice : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void choose_data()
    {
        QTest::addColumn<ImportContent>("content");
        QTest::addColumn<ViewChoice>("expected");

        QTest::newRow("nothing (failed, cancelled, no-op)") << ImportContent {} << choice(View::None);
        QTest::newRow("one trace") << traces({ { 7, 1 } }) << choice(View::Doctor, 7);
        QTest::newRow("two traces of two runs: before and after")
            << traces({ { 7, 1 }, { 9, 2 } }) << choice(View::Diff, 9, 7);
        QTest::newRow("two ranks of one run") << traces({ { 7, 1 }, { 8, 1 } }) << choice(View::Doctor, 7);
        QTest::newRow("three traces") << traces({ { 7, 1 }, { 8, 2 }, { 9, 3 } }) << choice(View::Doctor, 7);
        QTest::newRow("serving benchmark") << serving({ 4 }, 200) << choice(View::Slo, -1, -1, { 4 });
        QTest::newRow("serving run without requests") << serving({ 4 }, 0) << choice(View::None);
        QTest::newRow("job lifecycle") << lifecycle({ 5, 6 }, 40) << choice(View::Goodput, -1, -1, { 5 });
        QTest::newRow("experiment logs") << metrics({ 2, 3 }) << choice(View::Experiments, -1, -1, { 2, 3 });
        QTest::newRow("lineage") << lineage({ 12, 10 }) << choice(View::Lineage, -1, -1, {}, 12);

        QTest::newRow("trace + experiment logs")
            << traces({ { 7, 1 } }) + metrics({ 2 }) << choice(View::Doctor, 7);
        QTest::newRow("before/after traces + everything else") << traces({ { 7, 1 }, { 9, 2 } })
                + serving({ 4 }, 10) + lifecycle({ 5 }, 3) + metrics({ 2 })
                + lineage({ 12 }) << choice(View::Diff, 9, 7);
        QTest::newRow("serving + experiment logs + lineage")
            << serving({ 4 }, 10) + metrics({ 2 }) + lineage({ 12 }) << choice(View::Slo, -1, -1, { 4 });
        QTest::newRow("lifecycle + its metrics")
            << lifecycle({ 5 }, 3) + metrics({ 5 }) << choice(View::Goodput, -1, -1, { 5 });
        QTest::newRow("experiment logs + lineage")
            << metrics({ 2 }) + lineage({ 12 }) << choice(View::Experiments, -1, -1, { 2 });
    }

    void choose()
    {
        QFETCH(ImportContent, content);
        QFETCH(ViewChoice, expected);
        const ViewChoice got = chooseView(content);
        QVERIFY2(got == expected, qPrintable(describe(got) + QStringLiteral(" != ") + describe(expected)));
        QCOMPARE(content.isEmpty(), expected.view == View::None);
    }
};

QTEST_APPLESS_MAIN(TestViewChoice)
#include "tst_viewchoice.moc"
