// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/reportfigures.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "charts/diffcategorychart.h"
#include "charts/histogramchart.h"
#include "charts/idlebreakdownchart.h"
#include "charts/importancechart.h"
#include "charts/scalarchart.h"
#include "charts/stepbreakdownchart.h"
#include "charts/steptimediffchart.h"
#include "lineage/lineagelayout.h"
#include "lineage/lineagescene.h"
#include "store/lineagereader.h"
#include "store/workspace.h"
#include "theme.h"
#include "timeline/timelinedrawlist.h"
#include "timeline/timelinefetcher.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelinepainter.h"

#include <QCoreApplication>
#include <QGraphicsScene>
#include <QMap>
#include <QPainter>
#include <QResizeEvent>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace plumb {

namespace {

// Gives a chart widget the target's size as if it were shown (its resize handling elides titles), and
// lays it out; it is never shown. Reports are printed: light colours whatever the window's theme.
void sizeChart(QWidget &chart, const QRectF &target)
{
    chart.setPalette(lightPalette());
    const QSize old = chart.size();
    chart.resize(target.size().toSize());
    QResizeEvent resized(chart.size(), old);
    QCoreApplication::sendEvent(&chart, &resized);
}

template <typename Chart>
void paintWidgetChart(Chart &chart, QPainter &painter, const QRectF &target, const QFont &font)
{
    sizeChart(chart, target);
    paintChart(chart.plot(), painter, target, &font);
}

void drawSteps(QPainter &p, const QRectF &r, const ReportFigure &f, const QFont &font)
{
    StepBreakdownChart chart;
    chart.setStepTimes(std::any_cast<const StepTimeBreakdown &>(f.data));
    paintWidgetChart(chart, p, r, font);
}

void drawIdle(QPainter &p, const QRectF &r, const ReportFigure &f, const QFont &font)
{
    IdleBreakdownChart chart;
    chart.setStreams(std::any_cast<const std::vector<StreamIdle> &>(f.data));
    paintWidgetChart(chart, p, r, font);
}

void drawHistogram(QPainter &p, const QRectF &r, const ReportFigure &f, const QFont &font)
{
    const auto &h = std::any_cast<const HistogramFigure &>(f.data);
    HistogramChart chart(QStringLiteral("histogram"));
    chart.setFont(font); // the title is elided with the chart's font
    chart.setHistogram(h.histogram, h.quantity, h.title, h.markers);
    paintWidgetChart(chart, p, r, font);
}

void drawDiff(QPainter &p, const QRectF &r, const ReportFigure &f, const QFont &font)
{
    DiffCategoryChart chart;
    chart.setDiff(std::any_cast<const TraceDiff &>(f.data));
    paintWidgetChart(chart, p, r, font);
}

void drawStepTimeDiff(QPainter &p, const QRectF &r, const ReportFigure &f, const QFont &font)
{
    StepTimeDiffChart chart;
    chart.setDiff(std::any_cast<const TraceDiff &>(f.data));
    paintWidgetChart(chart, p, r, font);
}

void drawImportance(QPainter &p, const QRectF &r, const ReportFigure &f, const QFont &font)
{
    ImportanceChart chart;
    chart.setImportance(std::any_cast<const ParamImportance &>(f.data));
    paintWidgetChart(chart, p, r, font);
}

void drawScalars(QPainter &p, const QRectF &r, const ReportFigure &f, const QFont &font)
{
    const auto &s = std::any_cast<const ScalarFigure &>(f.data);
    ScalarChart chart(s.tag);
    chart.setFont(font);
    std::vector<ScalarLine> lines;
    for (size_t i = 0; i < s.lines.size(); ++i) {
        ScalarLine l;
        l.name = s.lines[i].name;
        l.color = runColor(int(i));
        l.parts.push_back({ s.lines[i].x, s.lines[i].y });
        lines.push_back(std::move(l));
    }
    chart.setTitle(s.tag);
    chart.setLines(std::move(lines), ScalarChart::XKind::Step);
    chart.setSmoothing(0);
    chart.setLegendVisible(true);
    sizeChart(chart, r);
    chart.fitAll();
    paintChart(chart.plot(), p, r, &font); // replots at the target's width: the decimation follows it
}

// The timeline of the stretch, read and drawn synchronously as bench_timeline does: every track of the
// trace (as many as fit the height), the stretch fitted to the width.
void drawTimeline(QPainter &p, const QRectF &r, const ReportFigure &f, const QFont &font)
{
    const auto &t = std::any_cast<const TimelineFigure &>(f.data);
    Workspace ws(t.workspacePath, Workspace::Role::Reader);
    TimelineSource source;
    source.workspacePath = t.workspacePath;
    source.traceId = t.traceId;
    const TimelineOpenResult open = TimelineFetcher::readSource(ws, source);
    if (!open.error.isEmpty())
        return;
    // Every GPU track, then the CPU threads (not their CUDA API companions) while they fit: the GPU
    // side is what the excerpt is about, and a CPU thread's deep stacks would push it off the figure.
    const double tracksHeight = r.height() - 32; // ruler and steps
    std::vector<int> kept;
    for (int i = 0; i < open.tracks.size(); ++i)
        if (open.tracks[i].processKind == QLatin1String("gpu"))
            kept.push_back(i);
    for (int i = 0; i < open.tracks.size(); ++i) {
        if (open.tracks[i].processKind != QLatin1String("cpu")
            || open.tracks[i].kind != QLatin1String("thread"))
            continue;
        std::vector<int> with = kept;
        with.insert(std::upper_bound(with.begin(), with.end(), i), i);
        QList<TimelineTrack> tracks;
        for (int k : with)
            tracks << open.tracks[k];
        if (TimelineLayout(tracks).contentHeight() <= tracksHeight)
            kept = std::move(with);
    }
    QList<TimelineTrack> tracks;
    std::vector<std::pair<double, double>> counterRanges;
    for (int k : kept) {
        tracks << open.tracks[k];
        counterRanges.push_back(size_t(k) < open.counterRanges.size() ? open.counterRanges[size_t(k)]
                                                                      : std::pair<double, double> {});
    }
    const TimelineLayout layout(tracks);
    TimelineFrame frame;
    frame.layout = &layout;
    frame.counterRanges = &counterRanges;
    frame.steps = &open.steps;
    frame.geometry.size = r.size();
    frame.geometry.gutterPx = std::min(150.0, r.width() * 0.28);
    frame.geometry.rulerPx = 18;
    frame.geometry.stepsPx = 14;
    frame.originNs = open.extent.startNs;
    frame.font = font;
    frame.scale = TimeScale::fit(t.fromNs, t.toNs, frame.geometry.timeWidth());
    std::vector<int> visible;
    for (const TimelineLayout::Row &row : layout.rows())
        if (!row.isHeader() && row.y < frame.geometry.tracksHeight())
            visible.push_back(row.trackIndex);
    const TimelineWindow window = TimelineFetcher::fetchWindow(
        ws, tracks, TimelineFetcher::keyFor(frame.scale, frame.geometry.timeWidth()), visible);
    frame.window = &window;
    TimelineDrawList list;
    list.build(frame);
    p.save();
    p.setClipRect(r);
    p.translate(r.topLeft());
    paintTimeline(p, list);
    p.restore();
    p.save();
    p.setPen(QPen(QColor(0xc8, 0xc8, 0xc8), 0.5));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r);
    p.restore();
}

LineageLayout layoutOf(const LineageGraph &g)
{
    std::unordered_map<int64_t, int> index;
    for (size_t i = 0; i < g.nodes.size(); ++i)
        index.emplace(g.nodes[i].id, int(i));
    std::vector<std::pair<int, int>> edges;
    for (const LineageEdgeInfo &e : g.edges) {
        const auto a = index.find(e.from), b = index.find(e.to);
        if (a != index.end() && b != index.end())
            edges.emplace_back(a->second, b->second);
    }
    LineageLayout layout;
    layout.compute(int(g.nodes.size()), edges);
    return layout;
}

void drawLineage(QPainter &p, const QRectF &r, const ReportFigure &f, const QFont &font)
{
    const auto &g = std::any_cast<const LineageGraph &>(f.data);
    if (g.nodes.empty())
        return;
    const LineageLayout layout = layoutOf(g);
    QGraphicsScene scene;
    QFont nodeFont = font;
    nodeFont.setPixelSize(16); // scene units: the two lines fill a 44-unit box; 5-8 points on the page
    drawLineageScene(scene, g, layout, nodeFont, QColor(0x30, 0x30, 0x30));
    scene.render(&p, r, scene.sceneRect(), Qt::KeepAspectRatio);
}

double lineageAspect(const ReportFigure &f)
{
    const auto &g = std::any_cast<const LineageGraph &>(f.data);
    if (g.nodes.empty())
        return f.aspect;
    const QRectF bounds = layoutOf(g).bounds().adjusted(-30, -30, 30, 30);
    return std::clamp(bounds.height() / bounds.width(), 0.05, 1.1);
}

QMap<QString, ReportFigureRenderer> &renderers()
{
    static QMap<QString, ReportFigureRenderer> map {
        { QStringLiteral("steps"), drawSteps },
        { QStringLiteral("idle"), drawIdle },
        { QStringLiteral("histogram"), drawHistogram },
        { QStringLiteral("diff"), drawDiff },
        { QStringLiteral("steptime-diff"), drawStepTimeDiff },
        { QStringLiteral("importance"), drawImportance },
        { QStringLiteral("scalars"), drawScalars },
        { QStringLiteral("timeline"), drawTimeline },
        { QStringLiteral("lineage"), drawLineage },
    };
    return map;
}

} // namespace

void registerReportFigureRenderer(const QString &kind, const ReportFigureRenderer &renderer)
{
    renderers().insert(kind, renderer);
}

double reportFigureAspect(const ReportFigure &figure)
{
    if (figure.kind == QLatin1String("lineage"))
        return lineageAspect(figure);
    return figure.aspect;
}

bool renderReportFigure(
    QPainter &painter, const QRectF &target, const ReportFigure &figure, const QFont &font)
{
    const auto it = renderers().constFind(figure.kind);
    if (it == renderers().constEnd())
        return false;
    (*it)(painter, target, figure, font);
    return true;
}

} // namespace plumb
