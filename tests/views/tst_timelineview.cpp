// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline view, offscreen: the draw-list builder maps slices to the expected pixels (folded
// boxes, elided labels, collapsed groups, search flags, counters), and the panel driven through
// events on a generated Kineto trace zooms, pans, selects a slice and a range, searches, fits and
// exports. The real traces in ../shared/data/traces open and draw (skipped when absent); with
// PLUMB_TIMELINE_SCREENSHOTS=DIR set, the window is saved there for each of them.
#include "builtinimporters.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "mainwindow.h"
#include "store/workspace.h"
#include "store/workspacereader.h"
#include "timeline/rangeaggregatemodel.h"
#include "timeline/slicedetailswidget.h"
#include "timeline/timelinedrawlist.h"
#include "timeline/timelinefetcher.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelinepainter.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

using namespace plumb;

namespace {

constexpr int kTimeoutMs = 60'000;

TimelineTrack makeTrack(int64_t id, int64_t traceId, int64_t processId, const QString &kind, int maxDepth)
{
    TimelineTrack t;
    t.id = id;
    t.traceId = traceId;
    t.rank = traceId - 1;
    t.traceName = QStringLiteral("trace%1").arg(traceId);
    t.processId = processId;
    t.processName = QStringLiteral("proc %1").arg(processId);
    t.kind = kind;
    t.name = QStringLiteral("%1 %2").arg(kind).arg(id);
    t.maxDepth = maxDepth;
    t.sliceCount = 10;
    return t;
}

// A Kineto-shaped trace: one CPU thread with ProfilerStep#N > aten::op > cudaLaunchKernel, one GPU
// stream running the launched kernels (same correlation), and a memory counter.
void writeKinetoTrace(const QString &path, int steps)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QByteArray out = "{\"schemaVersion\": 1, \"traceEvents\": [\n";
    const qint64 base = 1700000000000000LL; // µs
    int corr = 1;
    auto ev = [&](const QByteArray &json) { out += json + ",\n"; };
    for (int s = 0; s < steps; ++s) {
        const qint64 t0 = base + s * 10000;
        ev("{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#" + QByteArray::number(s + 1)
            + "\",\"pid\":100,\"tid\":100,\"ts\":" + QByteArray::number(t0) + ",\"dur\":9000}");
        for (int k = 0; k < 8; ++k) {
            const qint64 ts = t0 + 100 + k * 1000;
            const QByteArray kname = k % 2 ? "kernel_gemm_b" : "kernel_elementwise_a";
            ev("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::op" + QByteArray::number(k)
                + "\",\"pid\":100,\"tid\":100,\"ts\":" + QByteArray::number(ts)
                + ",\"dur\":600,\"args\":{\"Input Dims\":[[64,64]]}}");
            ev("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,"
               "\"ts\":"
                + QByteArray::number(ts + 100)
                + ",\"dur\":20,\"args\":{\"correlation\":" + QByteArray::number(corr) + "}}");
            ev("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" + kname + "\",\"pid\":0,\"tid\":7,\"ts\":"
                + QByteArray::number(ts + 150) + ",\"dur\":" + QByteArray::number(300 + 50 * k)
                + ",\"args\":{\"correlation\":" + QByteArray::number(corr) + ",\"device\":0,\"stream\":7}}");
            ev("{\"ph\":\"C\",\"name\":\"Memory\",\"pid\":100,\"tid\":100,\"ts\":" + QByteArray::number(ts)
                + ",\"args\":{\"bytes\":" + QByteArray::number(1000 + 100 * ((s * 8 + k) % 13)) + "}}");
            ++corr;
        }
    }
    out += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":100,\"args\":{\"name\":\"python3\"}}\n]}\n";
    f.write(out);
}

QString realTrace(const QString &relative)
{
    return QStringLiteral(PLUMB_SHARED_DATA "/traces/") + relative;
}

int distinctColours(const QImage &image)
{
    QSet<QRgb> colours;
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3)
            colours.insert(img.pixel(x, y));
    return int(colours.size());
}

QPointF centre(const QRectF &r)
{
    return r.center();
}

} // namespace

class TestTimelineView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        registerBuiltinImporters(m_registry);
        QVERIFY(m_dir.isValid());
    }

    // ---- draw list, no workspace ----------------------------------------------------------

    void drawListMapsSliceToPixels()
    {
        TimelineLayout layout({ makeTrack(1, 1, 10, QStringLiteral("thread"), 1) });
        QCOMPARE(int(layout.rows().size()), 2); // process header, track
        TimelineWindow window;
        window.tracks.resize(1);
        window.tracks[0].fetched = true;
        window.tracks[0].slices = { { 100'000, 300'000, 0, 7, 1 }, { 150'000, 250'000, 1, 8, 1 } };
        window.names = { { 7, QStringLiteral("outer") }, { 8, QStringLiteral("inner") } };

        TimelineFrame f;
        f.layout = &layout;
        f.window = &window;
        f.scale = { 0, 1000.0 }; // 1 µs per pixel
        f.geometry.size = QSizeF(1000, 400);
        f.geometry.gutterPx = 200;
        f.geometry.rulerPx = 24;
        f.geometry.stepsPx = 0;
        TimelineDrawList list;
        list.build(f);
        QCOMPARE(int(list.slices().size()), 2);
        const auto &outer = list.slices()[0];
        const double top = 24 + TimelineLayout::kHeaderHeightPx + TimelineLayout::kTrackPaddingPx;
        QCOMPARE(outer.rect, QRectF(300, top + 1, 200, TimelineLayout::kLaneHeightPx - 2));
        QCOMPARE(list.slices()[1].rect,
            QRectF(350, top + TimelineLayout::kLaneHeightPx + 1, 100, TimelineLayout::kLaneHeightPx - 2));
        QCOMPARE(list.nameOf(outer.nameId), QStringLiteral("outer"));
        QCOMPARE(list.sliceAt(QPointF(400, top + 5))->nameId, int64_t(7));
        QCOMPARE(list.sliceAt(QPointF(400, top + TimelineLayout::kLaneHeightPx + 5))->nameId, int64_t(8));
        QVERIFY(!list.sliceAt(QPointF(100, top + 5))); // the gutter
        // Both are wide enough for their whole names.
        QCOMPARE(int(list.labels().size()), 2);
        QCOMPARE(list.labels()[0].text, QStringLiteral("outer"));
        // Colours are stable per name, and differ between these two.
        QCOMPARE(outer.fill, TimelinePalette::light().sliceColor(QStringLiteral("outer")).rgb());
        QVERIFY(outer.fill != list.slices()[1].fill);
        QCOMPARE(TimelinePalette::light().sliceColor(QStringLiteral("x")),
            TimelinePalette::light().sliceColor(QStringLiteral("x")));
        // Ruler ticks lie in the time area.
        QVERIFY(!list.ticks().empty());
        for (const auto &t : list.ticks())
            QVERIFY(t.x >= 200 - 0.5 && t.x <= 1000.5);
    }

    void drawListFoldsElidesAndFlags()
    {
        TimelineLayout layout({ makeTrack(1, 1, 10, QStringLiteral("gpu_stream"), 0) });
        TimelineWindow window;
        window.tracks.resize(1);
        window.tracks[0].fetched = true;
        const QString longName
            = QStringLiteral("void at::native::vectorized_elementwise_kernel<4, at::native::"
                             "FillFunctor<float>, at::detail::Array<char*, 1> >");
        window.tracks[0].slices = {
            { 0, 40'000, 0, 1, 1 }, // 40 px: label elided
            { 50'000, 60'000, 0, 2, 1 }, // 10 px: no label
            { 70'000, 72'000, 0, 3, 12 }, // folded run of 12
            { 80'000, 80'000, 0, 2, 1 }, // an instant
        };
        window.tracks[0].idle = { { 60'000, 70'000 } };
        window.names = { { 1, longName }, { 2, QStringLiteral("short") }, { 3, QStringLiteral("tiny") } };
        NameMatcher matcher;
        matcher.nameIds = { 2 };

        TimelineFrame f;
        f.layout = &layout;
        f.window = &window;
        f.matcher = &matcher;
        f.scale = { 0, 1000.0 };
        f.geometry.size = QSizeF(800, 300);
        f.geometry.gutterPx = 200;
        f.geometry.stepsPx = 0;
        TimelineDrawList list;
        list.build(f);
        QCOMPARE(int(list.slices().size()), 4);
        QCOMPARE(int(list.labels().size()), 1);
        const QString label = list.labels()[0].text;
        QVERIFY2(label.endsWith(QChar(0x2026)) && label.size() < longName.size(), qPrintable(label));
        QVERIFY(QFontMetricsF(list.font()).horizontalAdvance(label) <= list.labels()[0].rect.width() + 0.5);
        const auto &folded = list.slices()[2];
        QVERIFY(folded.flags & TimelineDrawList::Folded);
        QCOMPARE(folded.count, int64_t(12));
        QCOMPARE(folded.fill, TimelinePalette::light().folded.rgb());
        QVERIFY(list.slices()[3].flags & TimelineDrawList::Instant);
        // Search: "short" matches, the rest is dimmed.
        QVERIFY(list.slices()[1].flags & TimelineDrawList::Match);
        QVERIFY(list.slices()[3].flags & TimelineDrawList::Match);
        QVERIFY(list.slices()[0].flags & TimelineDrawList::Dimmed);
        QCOMPARE(int(list.idleGaps().size()), 1);
        QCOMPARE(list.idleGaps()[0].left(), 260.0);

        // Painting headless into an image leaves more than the background.
        QImage image(800, 300, QImage::Format_ARGB32_Premultiplied);
        QPainter p(&image);
        paintTimeline(p, list);
        p.end();
        QVERIFY(distinctColours(image) > 10);
    }

    void collapsedGroupHidesRows()
    {
        QList<TimelineTrack> tracks { makeTrack(1, 1, 10, QStringLiteral("thread"), 2),
            makeTrack(2, 1, 10, QStringLiteral("thread"), 0),
            makeTrack(3, 1, 11, QStringLiteral("gpu_stream"), 0),
            makeTrack(4, 2, 12, QStringLiteral("thread"), 0) };
        tracks[1].parentTrackId = 1;
        TimelineLayout layout(tracks);
        // Two traces: rank headers, then process headers.
        QCOMPARE(int(layout.rows().size()), 2 + 3 + 4);
        QCOMPARE(layout.rows()[0].kind, TimelineLayout::Row::Kind::RankHeader);
        QCOMPARE(layout.rows()[1].kind, TimelineLayout::Row::Kind::ProcessHeader);
        QCOMPARE(
            layout.rows()[2].height, 3 * TimelineLayout::kLaneHeightPx + 2 * TimelineLayout::kTrackPaddingPx);
        QVERIFY(layout.rows()[3].indent > layout.rows()[2].indent); // a companion sits beneath its thread
        const double fullHeight = layout.contentHeight();
        const QString process = layout.rows()[1].groupKey;
        layout.setCollapsed(process, true);
        QCOMPARE(layout.rowOfTrack(0), -1);
        QCOMPARE(layout.rowOfTrack(1), -1);
        QVERIFY(layout.rowOfTrack(2) >= 0);
        QVERIFY(layout.contentHeight() < fullHeight);

        TimelineWindow window;
        window.tracks.resize(4);
        for (auto &t : window.tracks) {
            t.fetched = true;
            t.slices = { { 0, 100'000, 0, 1, 1 } };
        }
        TimelineFrame f;
        f.layout = &layout;
        f.window = &window;
        f.scale = { 0, 1000.0 };
        f.geometry.size = QSizeF(800, 600);
        TimelineDrawList list;
        list.build(f);
        QSet<int> drawn;
        for (const auto &s : list.slices())
            drawn.insert(s.trackIndex);
        QCOMPARE(drawn, (QSet<int> { 2, 3 }));

        layout.setCollapsed(layout.rows()[0].groupKey, true); // rank 0: its processes go too
        QCOMPARE(layout.rowOfTrack(2), -1);
        layout.reveal(0);
        QVERIFY(layout.rowOfTrack(0) >= 0);
        QCOMPARE(layout.rowAt(-1), -1);
        QCOMPARE(layout.rowAt(0), 0);
    }

    void counterTrackDraws()
    {
        TimelineLayout layout({ makeTrack(1, 1, 10, QStringLiteral("counter"), 0) });
        TimelineWindow window;
        window.tracks.resize(1);
        window.tracks[0].fetched = true;
        window.tracks[0].counter = { { 0, 10'000, 0, 5, 1, 2, 3 }, { 100'000, 100'000, 8, 8, 8, 8, 1 } };
        std::vector<std::pair<double, double>> ranges { { 0, 10 } };
        TimelineFrame f;
        f.layout = &layout;
        f.window = &window;
        f.counterRanges = &ranges;
        f.scale = { 0, 1000.0 };
        f.geometry.size = QSizeF(800, 300);
        TimelineDrawList list;
        list.build(f);
        QCOMPARE(int(list.counters().size()), 1);
        const auto &c = list.counters()[0];
        QVERIFY(c.area.size() >= 8);
        // The peak (5 of 10) reaches half the track's height.
        double minY = 1e9;
        for (const QPointF &p : c.area)
            minY = std::min(minY, p.y());
        QVERIFY(minY < c.rect.center().y() + 4);
    }

    void fetchKeyCoversTheView()
    {
        const TimeScale s { 1'000'000, 500.0 };
        const FetchKey k = TimelineFetcher::keyFor(s, 1000);
        QVERIFY(k.fromNs <= s.startNs);
        QVERIFY(k.toNs >= s.endNs(1000));
        QVERIFY(k.minWidthNs() <= int64_t(kMinVisiblePx * 500));
        QVERIFY(k.minWidthNs() * 2 > int64_t(kMinVisiblePx * 500));
        // A small pan stays in the window; zooming by more than 2x changes the level.
        QCOMPARE(TimelineFetcher::keyFor(s.panned(10), 1000), k);
        QVERIFY(TimelineFetcher::keyFor(s.zoomed(500, 4, 1e9), 1000).level < k.level);
    }

    // ---- the panel on a generated trace ----------------------------------------------------

    void panelInteractions()
    {
        const QString trace = m_dir.filePath(QStringLiteral("gen.pt.trace.json"));
        writeKinetoTrace(trace, 6);
        const QString ws = m_dir.filePath(QStringLiteral("gen.plumb"));
        const TimelineSource source = importOne(ws, { trace });
        QVERIFY(source.traceId >= 0);

        TimelinePanel panel;
        panel.resize(1300, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        TimelineView *view = panel.view();
        QSignalSpy opened(view, &TimelineView::opened);
        panel.open(source);
        QVERIFY(opened.wait(kTimeoutMs));
        QCOMPARE(opened.at(0).at(0).toString(), QString());
        QVERIFY(view->isLoaded());
        QVERIFY(view->tracks().size() >= 3);
        QTRY_VERIFY_WITH_TIMEOUT(!view->drawList().slices().empty(), kTimeoutMs);
        QCOMPARE(int(view->steps().size()), 6);
        QVERIFY(!view->drawList().steps().empty());
        const TimeScale fitted = view->scale();
        const double width = view->timeWidth();
        const TimelineGeometry g = view->drawList().geometry();

        // Painting never builds a frame on the GUI thread: a paint after a change draws the last
        // list and asks the draw-list thread for the new one, which lands without drawList().
        view->zoomBy(1.5, width / 2);
        QVERIFY(!view->isFrameCurrent());
        view->repaint();
        QTRY_VERIFY_WITH_TIMEOUT(view->isFrameCurrent(), kTimeoutMs);
        view->fit();

        // Ctrl+wheel zooms in around the cursor: the time under it stays put.
        const QPointF at(g.timeLeft() + width * 0.3, g.tracksTop() + 40);
        const int64_t tAt = view->timeAt(at.x());
        wheel(view, at, 120, Qt::ControlModifier);
        QVERIFY(view->scale().nsPerPx < fitted.nsPerPx);
        QVERIFY(std::abs(view->timeAt(at.x()) - tAt) <= int64_t(view->scale().nsPerPx) + 1);
        // Plain wheel scrolls the tracks, not the time.
        const TimeScale afterZoom = view->scale();
        wheel(view, at, -120, Qt::NoModifier);
        QCOMPARE(view->scale(), afterZoom);

        // W/S zoom, A/D pan.
        view->setFocus();
        QTest::keyClick(view, Qt::Key_W);
        QVERIFY(view->scale().nsPerPx < afterZoom.nsPerPx);
        QTest::keyClick(view, Qt::Key_S);
        QVERIFY(std::abs(view->scale().nsPerPx - afterZoom.nsPerPx) < afterZoom.nsPerPx * 1e-6);
        const int64_t start = view->scale().startNs;
        QTest::keyClick(view, Qt::Key_D);
        QVERIFY(view->scale().startNs > start);
        QTest::keyClick(view, Qt::Key_A);
        QVERIFY(std::abs(view->scale().startNs - start) <= 2);

        // Dragging pans: content follows the mouse.
        const int64_t before = view->scale().startNs;
        drag(view, at, at + QPointF(-200, 0), Qt::NoModifier);
        QVERIFY(std::abs(view->scale().startNs - (before + int64_t(200 * view->scale().nsPerPx)))
            <= int64_t(view->scale().nsPerPx) + 2);

        // F fits again.
        QTest::keyClick(view, Qt::Key_F);
        QCOMPARE(view->scale(), fitted);

        // Zoom into the first step (click on its marker), then click a kernel: the details show it.
        QTRY_VERIFY(!view->drawList().steps().empty());
        const QPointF stepAt = centre(view->drawList().steps().front().rect);
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, stepAt.toPoint());
        QVERIFY(view->scale().nsPerPx < fitted.nsPerPx / 3);
        QTRY_VERIFY_WITH_TIMEOUT(hasNamed(view, QStringLiteral("kernel_gemm_b")), kTimeoutMs);
        const TimelineDrawList::SliceItem item = *namedItem(view, QStringLiteral("kernel_gemm_b"));
        QSignalSpy selected(view, &TimelineView::sliceSelected);
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, centre(item.rect).toPoint());
        QTRY_COMPARE_WITH_TIMEOUT(selected.size(), 1, kTimeoutMs);
        QTRY_VERIFY(panel.details()->toPlainText().contains(QStringLiteral("kernel_gemm_b")));
        QVERIFY(view->selectedSlice());
        // The launch that queued it is linked, and a click on the link selects it.
        QTRY_VERIFY_WITH_TIMEOUT(!panel.details()->links().empty(), kTimeoutMs);
        QVERIFY(panel.details()->toPlainText().contains(QStringLiteral("cudaLaunchKernel")));
        QTRY_VERIFY(!view->drawList().arrows().empty());
        Q_EMIT panel.details()->linkActivated(panel.details()->links().front().slice);
        QTRY_COMPARE(view->selectedSlice()->name, QStringLiteral("cudaLaunchKernel"));

        // Z zooms to the selection.
        QTest::keyClick(view, Qt::Key_Z);
        QVERIFY(view->scale().nsPerPx < 100);

        // Shift+drag selects a range: the aggregate table fills.
        QTest::keyClick(view, Qt::Key_F);
        QAbstractItemModelTester tester(
            panel.aggregateModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy aggregated(&panel, &TimelinePanel::aggregateReady);
        const TimelineGeometry g2 = view->drawList().geometry();
        drag(view, QPointF(g2.timeLeft() + 5, g2.tracksTop() + 2),
            QPointF(g2.timeRight() - 5, g2.size.height() - 2), Qt::ShiftModifier);
        QVERIFY(view->range());
        QTRY_COMPARE_WITH_TIMEOUT(aggregated.size(), 1, kTimeoutMs);
        QVERIFY(panel.aggregateModel()->rowCount() >= 3);
        QStringList names;
        for (const auto &r : panel.aggregateModel()->rows())
            names << r.name;
        QVERIFY2(names.contains(QStringLiteral("kernel_gemm_b")), qPrintable(names.join(u',')));
        // Sorted by total time, descending, on numbers.
        QSortFilterProxyModel *proxy = panel.aggregateProxy();
        for (int r = 1; r < proxy->rowCount(); ++r)
            QVERIFY(proxy->index(r - 1, RangeAggregateModel::TotalColumn)
                        .data(RangeAggregateModel::SortRole)
                        .toLongLong()
                >= proxy->index(r, RangeAggregateModel::TotalColumn)
                       .data(RangeAggregateModel::SortRole)
                       .toLongLong());
        const QString tsv = panel.aggregateTsv();
        QVERIFY(tsv.startsWith(QStringLiteral("Name\tCount\t")));
        QCOMPARE(tsv.count(u'\n'), proxy->rowCount() + 1);
        // Z zooms to the range.
        QTest::keyClick(view, Qt::Key_Z);
        QVERIFY(view->scale().startNs <= view->range()->first);

        // Search: 8 kernels per step are half "a", half "b".
        QTest::keyClick(view, Qt::Key_Escape);
        QVERIFY(!view->range());
        QTest::keyClick(view, Qt::Key_F);
        panel.searchField()->setText(QStringLiteral("gemm_b"));
        QTRY_COMPARE_WITH_TIMEOUT(panel.matchCount(), int64_t(24), kTimeoutMs);
        QTRY_VERIFY(hasFlag(view, TimelineDrawList::Match) || hasFlag(view, TimelineDrawList::Folded));
        QSignalSpy found(&panel, &TimelinePanel::searchFinished);
        panel.findNext();
        QTRY_COMPARE_WITH_TIMEOUT(found.size(), 1, kTimeoutMs);
        QVERIFY(found.last().at(0).toBool());
        const int64_t first = view->selectedSlice()->startNs;
        QCOMPARE(view->selectedSlice()->name, QStringLiteral("kernel_gemm_b"));
        QTest::keyClick(panel.searchField(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(found.size(), 2, kTimeoutMs);
        QVERIFY(view->selectedSlice()->startNs > first);
        panel.findPrevious();
        QTRY_COMPARE_WITH_TIMEOUT(found.size(), 3, kTimeoutMs);
        QCOMPARE(view->selectedSlice()->startNs, first);
        // A regex.
        panel.regexButton()->setChecked(true);
        panel.searchField()->setText(QStringLiteral("^kernel_(gemm|elementwise)_[ab]$"));
        QTRY_COMPARE_WITH_TIMEOUT(panel.matchCount(), int64_t(48), kTimeoutMs);

        // Clicking the process header collapses it.
        const int rowsBefore = int(view->layout().rows().size());
        const TimelineDrawList::RowItem header = view->drawList().rows().front();
        QVERIFY(header.header);
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, QPoint(20, int(header.rect.center().y())));
        QVERIFY(int(view->layout().rows().size()) < rowsBefore);
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, QPoint(20, int(header.rect.center().y())));
        QCOMPARE(int(view->layout().rows().size()), rowsBefore);

        // Export.
        const QString png = m_dir.filePath(QStringLiteral("timeline.png"));
        const QString pdf = m_dir.filePath(QStringLiteral("timeline.pdf"));
        QVERIFY(panel.exportPng(png));
        QVERIFY(panel.exportPdf(pdf));
        QVERIFY(QFileInfo(pdf).size() > 1000);
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(5) == "%PDF-");
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), int(2 * (view->width() - view->drawList().geometry().scrollbarPx)));
        QVERIFY(distinctColours(image) > 20);
    }

    // The Critical Path button: the second step's path is outlined and the rest dimmed; the button
    // off, the timeline is as before.
    void criticalPathOverlay()
    {
        const QString trace = m_dir.filePath(QStringLiteral("cp.pt.trace.json"));
        writeKinetoTrace(trace, 4);
        const TimelineSource source = importOne(m_dir.filePath(QStringLiteral("cp.plumb")), { trace });
        QVERIFY(source.traceId >= 0);
        TimelinePanel panel;
        panel.resize(1300, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        TimelineView *view = panel.view();
        QSignalSpy opened(view, &TimelineView::opened);
        panel.open(source);
        QVERIFY(opened.wait(kTimeoutMs));
        QTRY_VERIFY_WITH_TIMEOUT(!view->drawList().slices().empty(), kTimeoutMs);
        const QImage plain = view->renderImage();

        QSignalSpy ready(&panel, &TimelinePanel::criticalPathReady);
        panel.criticalPathButton()->setChecked(true);
        QVERIFY(ready.wait(kTimeoutMs));
        QVERIFY(view->hasCriticalPath());
        QVERIFY(panel.criticalPathButton()->toolTip().startsWith(
            QStringLiteral("ProfilerStep#2: critical path")));
        const QImage overlaid = view->renderImage();
        // Step 2's CPU span is its path (its kernels are short): it keeps its colour inside its
        // outline; a kernel of step 4 is dimmed.
        int stream = -1, thread = -1;
        for (int i = 0; i < view->tracks().size(); ++i) {
            if (view->tracks()[i].kind == QLatin1String("gpu_stream"))
                stream = i;
            if (view->tracks()[i].kind == QLatin1String("thread") && thread < 0)
                thread = i;
        }
        QVERIFY(stream >= 0 && thread >= 0);
        const int64_t base = 1700000000000000LL * 1000;
        const int64_t step2 = base + 10000 * 1000;
        const QPoint onPath(int(view->xOf(step2 + 4500 * 1000)), int(view->yOf(thread, 0)));
        const int64_t kernel = base + (3 * 10000 + 7100 + 150) * 1000;
        const QPoint offPath(int(view->xOf(kernel + 300 * 1000)), int(view->yOf(stream, 0)));
        QCOMPARE(overlaid.pixel(onPath), plain.pixel(onPath));
        QVERIFY(overlaid.pixel(offPath) != plain.pixel(offPath));

        panel.criticalPathButton()->setChecked(false);
        QVERIFY(!view->hasCriticalPath());
        QCOMPARE(view->renderImage(), plain);
    }

    // ---- real traces through the main window ----------------------------------------------

    void realTraces_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<bool>("asRun");
        QTest::addColumn<QString>("shot");
        QTest::newRow("kineto") << QStringList {
            realTrace(QStringLiteral("kineto/hta_ns_resolution_rank0.pt.trace.json.gz"))
        } << false << QStringLiteral("timeline-kineto.png");
        QTest::newRow("nsys") << QStringList {
            realTrace(QStringLiteral("nsys/cloverleaf_nsys2024.5.sqlite"))
        } << false << QStringLiteral("timeline-nsys.png");
        QTest::newRow("xplane") << QStringList {
            realTrace(QStringLiteral("xplane/tf_gpu_multi_worker.xplane.pb"))
        } << false << QStringLiteral("timeline-xplane.png");
        QTest::newRow("two ranks") << QStringList {
            realTrace(QStringLiteral("kineto/hta_sampled_rank-0.json.gz")),
            realTrace(QStringLiteral("kineto/hta_sampled_rank-1.json.gz"))
        } << true << QStringLiteral("timeline-2ranks.png");
    }

    void realTraces()
    {
        QFETCH(QStringList, files);
        QFETCH(bool, asRun);
        QFETCH(QString, shot);
        for (const QString &f : files)
            if (!QFileInfo::exists(f))
                QSKIP(qPrintable(
                    QStringLiteral("%1 is absent (the shared data sits beside the checkout)").arg(f)));
        // Ranks of one job form a run when imported from one folder.
        QStringList paths = files;
        if (asRun) {
            const QString folder = m_dir.filePath(QStringLiteral("job-%1")
                                                      .arg(QString::fromLatin1(QTest::currentDataTag()))
                                                      .replace(u' ', u'_'));
            QVERIFY(QDir().mkpath(folder));
            paths.clear();
            for (const QString &f : files) {
                const QString copy = folder + u'/' + QFileInfo(f).fileName();
                QVERIFY(QFile::copy(f, copy));
            }
            paths << folder;
        }
        const QString ws
            = m_dir.filePath(QStringLiteral("real-%1.plumb")
                                 .arg(QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'_')));
        const TimelineSource source = importOne(ws, paths, asRun);
        QVERIFY(source.traceId >= 0 || source.runId >= 0);

        MainWindow window(m_registry, ws);
        window.resize(1600, 1000);
        window.show();
        QSignalSpy loaded(&window, &MainWindow::workspaceLoaded);
        QVERIFY(loaded.wait(kTimeoutMs));
        TimelinePanel *panel = window.timelinePanel();
        QVERIFY(panel);
        QSignalSpy opened(panel->view(), &TimelineView::opened);
        window.openTimeline(source.traceId, source.runId);
        QVERIFY(opened.wait(kTimeoutMs));
        QCOMPARE(opened.at(0).at(0).toString(), QString());
        TimelineView *view = panel->view();
        QTRY_VERIFY_WITH_TIMEOUT(!view->fetcher()->window().tracks.empty(), kTimeoutMs);
        if (view->drawList().slices().empty()) {
            const TimelineWindow &w = view->fetcher()->window();
            qWarning() << "extent" << view->extent().startNs << view->extent().endNs << "scale"
                       << view->scale().startNs << view->scale().nsPerPx << "window" << w.key.level
                       << w.key.fromNs << w.key.toNs;
            for (size_t i = 0; i < w.tracks.size() && i < 12; ++i)
                qWarning() << view->tracks().at(int(i)).name << w.tracks[i].fetched
                           << w.tracks[i].slices.size();
        }
        QTRY_VERIFY_WITH_TIMEOUT(!view->drawList().slices().empty(), kTimeoutMs);
        QVERIFY(!view->fetcher()->isFetching()
            || QTest::qWaitFor([&] { return !view->fetcher()->isFetching(); }, kTimeoutMs));
        if (asRun) {
            QSet<int64_t> traces;
            for (const auto &t : view->tracks())
                traces.insert(t.traceId);
            QCOMPARE(traces.size(), 2);
            QCOMPARE(view->layout().rows().front().kind, TimelineLayout::Row::Kind::RankHeader);
        }
        // Zoom in on a step (else on the busiest part), and select the widest slice on screen, for the
        // screenshot.
        if (view->steps().size() > 1) {
            const StepMarker &step = view->steps()[1];
            view->zoomToRange(step.startNs, step.endNs);
        } else {
            const auto &slices = view->drawList().slices();
            const double x = slices[slices.size() / 2].rect.center().x();
            view->zoomBy(4, x - view->drawList().geometry().timeLeft());
        }
        QTRY_VERIFY_WITH_TIMEOUT(!view->fetcher()->isFetching(), kTimeoutMs);
        QTRY_VERIFY(!view->drawList().slices().empty());
        const TimelineDrawList::SliceItem *widest = nullptr;
        // A kernel (its launch arrow shows) when one is wide enough, else the widest nested slice.
        for (const auto &s : view->drawList().slices())
            if (!(s.flags & TimelineDrawList::Folded) && view->tracks().at(s.trackIndex).kind == u"gpu_stream"
                && s.rect.width() >= 6 && view->drawList().geometry().tracksRect().contains(s.rect.center()))
                widest = &s;
        for (const auto &s : view->drawList().slices())
            if (!widest && !(s.flags & TimelineDrawList::Folded) && s.depth > 0)
                widest = &s;
        for (const auto &s : view->drawList().slices())
            if (widest && widest->depth > 0 && !(s.flags & TimelineDrawList::Folded) && s.depth > 0
                && s.rect.width() > widest->rect.width())
                widest = &s;
        if (widest) {
            QSignalSpy selected(view, &TimelineView::sliceSelected);
            QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, widest->rect.center().toPoint());
            QTRY_COMPARE_WITH_TIMEOUT(selected.size(), 1, kTimeoutMs);
            QTRY_VERIFY(!panel->details()->toPlainText().isEmpty());
        }
        const QByteArray shotDir = qgetenv("PLUMB_TIMELINE_SCREENSHOTS");
        if (!shotDir.isEmpty()) {
            QTest::qWait(300);
            QVERIFY(window.grab().save(QString::fromLocal8Bit(shotDir) + u'/' + shot));
            // The same view in a dark palette, to look at its contrast.
            QPalette dark = view->palette();
            dark.setColor(QPalette::Window, QColor(0x26, 0x28, 0x2c));
            dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
            dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
            dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
            view->setPalette(dark);
            QTest::qWait(300);
            QVERIFY(view->grab().save(QString::fromLocal8Bit(shotDir) + u"/dark-" + shot));
        }
    }

private:
    TimelineSource importOne(const QString &ws, const QStringList &paths, bool asRun = false)
    {
        ImportRunner runner(m_registry, ws);
        const auto results = runner.run(paths);
        TimelineSource source;
        for (const auto &r : results)
            if (r.status != FileImportResult::Status::Imported) {
                qWarning() << r.path << statusName(r.status) << r.message;
                return source;
            }
        Workspace reader(ws, Workspace::Role::Reader);
        const auto runs = WorkspaceReader(reader).runs();
        if (runs.isEmpty() || runs.first().traces.isEmpty())
            return source;
        source.workspacePath = ws;
        if (asRun)
            source.runId = runs.first().id;
        else
            source.traceId = runs.first().traces.first().id;
        return source;
    }

    static void wheel(QWidget *w, QPointF pos, int delta, Qt::KeyboardModifiers mods)
    {
        QWheelEvent e(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton, mods,
            Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(w, &e);
    }

    static void drag(QWidget *w, QPointF from, QPointF to, Qt::KeyboardModifiers mods)
    {
        auto send = [&](QEvent::Type type, QPointF pos, Qt::MouseButtons buttons) {
            QMouseEvent e(type, pos, w->mapToGlobal(pos), Qt::LeftButton, buttons, mods);
            QCoreApplication::sendEvent(w, &e);
        };
        send(QEvent::MouseButtonPress, from, Qt::LeftButton);
        for (int i = 1; i <= 10; ++i)
            send(QEvent::MouseMove, from + (to - from) * (i / 10.0), Qt::LeftButton);
        send(QEvent::MouseButtonRelease, to, Qt::NoButton);
    }

    static const TimelineDrawList::SliceItem *namedItem(TimelineView *view, const QString &name)
    {
        const TimelineDrawList &list = view->drawList();
        for (const auto &s : list.slices())
            if (!(s.flags & TimelineDrawList::Folded) && list.nameOf(s.nameId) == name && s.rect.width() >= 4
                && list.geometry().tracksRect().contains(s.rect.center()))
                return &s;
        return nullptr;
    }
    static bool hasNamed(TimelineView *view, const QString &name) { return namedItem(view, name) != nullptr; }
    static bool hasFlag(TimelineView *view, quint8 flag)
    {
        for (const auto &s : view->drawList().slices())
            if (s.flags & flag)
                return true;
        return false;
    }

    ImporterRegistry m_registry;
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
