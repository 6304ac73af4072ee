// SPDX-License-Identifier: GPL-3.0-or-later
// bench_timeline: how the timeline holds up on a big trace. Generates (once, kept with --keep) a
// workspace with one trace of N slices (default 10,000,000) on 64 thread tracks nested up to 8 deep,
// through the real import path (ImportRunner + TraceSink, so the LOD summaries are built as for any
// import), then measures what the timeline view does for a 1920x1080 view, synchronously on one
// thread (the app runs the fetch on a worker, so these are upper bounds of what the GUI waits for):
//
//   open -> first frame : open the workspace, read tracks, extent and steps, fetch the visible tracks
//                         at fit-all, build the draw list, paint into a QImage;
//   per frame           : fetch (when the data window changes) + draw list + paint, for pan sequences
//                         at fit-all, mid zoom and deepest zoom, and the zoom steps between them.
//
// Prints one line per phase and a JSON summary line. Usage:
//   bench_timeline [--slices N] [--tracks K] [--depth D] [--keep DIR]

#include "benchimport.h"
#include "ingest/importcontext.h"
#include "ingest/importer.h"
#include "ingest/tracesink.h"
#include "store/workspace.h"
#include "timeline/timelinedrawlist.h"
#include "timeline/timelinefetcher.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelinepainter.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <random>

using namespace plumb;

namespace {

constexpr QLatin1StringView kSpecMagic("plumb-bench-timeline");

struct Spec {
    int64_t slices = 10'000'000;
    int tracks = 64;
    int depth = 8;
    unsigned seed = 1;
};

// Reads the one-line spec file the benchmark writes and generates the trace it describes: per
// track, top-level slices one after another (a slot of 1.28 ms each, 90% busy) holding random trees
// of nested slices down to `depth`, names from a pool of 256, eight threads per process.
class GeneratedTimelineImporter final : public bench::SpecImporter {
public:
    GeneratedTimelineImporter()
        : SpecImporter(
            kSpecMagic, QStringLiteral("bench-timeline"), QStringLiteral("Generated timeline (benchmark)"))
    {
    }
    void read(ImportContext &ctx) const override
    {
        const auto values = readSpec(ctx);
        Spec spec;
        spec.slices = values.value("slices", "10000000").toLongLong();
        spec.tracks = values.value("tracks", "64").toInt();
        spec.depth = values.value("depth", "8").toInt();
        spec.seed = values.value("seed", "1").toUInt();
        TraceSink &sink = ctx.traceSink();
        sink.setTraceName(QStringLiteral("generated timeline"));
        std::vector<int64_t> names;
        for (int i = 0; i < 256; ++i)
            names.push_back(sink.intern(QStringLiteral("aten::generated_op_%1").arg(i).toStdString()));
        const int64_t step = sink.intern("ProfilerStep#");
        std::mt19937_64 rng(spec.seed);
        const int64_t perTrack = spec.slices / spec.tracks;
        constexpr int64_t kSlotNs = 1'280'000;
        for (int t = 0; t < spec.tracks; ++t) {
            const int64_t process = sink.process(QStringLiteral("%1").arg(1000 + t / 8).toStdString());
            const int64_t track = sink.thread(process, QStringLiteral("%1").arg(t).toStdString());
            int64_t emitted = 0;
            // Pre-order: a node, then its children inside it, so every slice arrives after its parent.
            std::function<void(int, int64_t, int64_t, int64_t)> tree = [&](int depth, int64_t start,
                                                                           int64_t dur, int64_t budget) {
                if (emitted >= perTrack || dur < 2)
                    return;
                SliceFields s;
                s.tsNs = start;
                s.durNs = dur;
                s.nameId = names[size_t(rng() % names.size())];
                sink.addSlice(track, s);
                ++emitted;
                if (depth + 1 >= spec.depth || budget <= 1)
                    return;
                const int children = 1 + int(rng() % 4);
                int64_t left = budget - 1;
                const int64_t slot = dur / children;
                for (int c = 0; c < children && left > 0; ++c) {
                    const int64_t share
                        = c + 1 == children ? left : std::max<int64_t>(1, left / (children - c));
                    left -= share;
                    const int64_t off = int64_t(rng() % uint64_t(std::max<int64_t>(1, slot / 8)));
                    tree(depth + 1, start + c * slot + off, std::max<int64_t>(1, slot * 3 / 4 - off), share);
                }
            };
            for (int64_t i = 0; emitted < perTrack; ++i) {
                const int64_t start = i * kSlotNs + int64_t(rng() % 1000);
                if (i % 100 == 0) { // a step marker every 100 slots on the first track
                    if (t == 0) {
                        SliceFields s { start, 100 * kSlotNs - 1, step };
                        s.nameId = sink.intern(QStringLiteral("ProfilerStep#%1").arg(i / 100).toStdString());
                        sink.addSlice(track, s);
                        ++emitted;
                    }
                }
                tree(t == 0 ? 1 : 0, start, kSlotNs * 9 / 10, 48);
            }
            ctx.checkpoint();
        }
        ctx.recordsRead = spec.slices;
    }
};

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

int64_t vmRssKiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    return -1;
}

// The view: tracks, layout, current data window, draw list and the image it paints into.
struct View {
    Workspace *ws = nullptr;
    TimelineOpenResult open;
    TimelineLayout layout;
    TimelineWindow window;
    TimelineDrawList list;
    QImage image { 1920, 1080, QImage::Format_ARGB32_Premultiplied };
    TimelineGeometry geometry;
    int fetches = 0;
    double fetchMs = 0, buildMs = 0, paintMs = 0; // totals over all frames

    std::vector<int> visibleTracks() const
    {
        std::vector<int> out;
        const double top = geometry.scrollY, bottom = top + geometry.tracksHeight();
        for (const TimelineLayout::Row &r : layout.rows())
            if (!r.isHeader() && r.y + r.height > top && r.y < bottom)
                out.push_back(r.trackIndex);
        return out;
    }

    // One frame; returns its milliseconds.
    double frame(const TimeScale &scale)
    {
        QElapsedTimer timer;
        timer.start();
        const FetchKey key = TimelineFetcher::keyFor(scale, geometry.timeWidth());
        if (!(key == window.key)) {
            window = TimelineFetcher::fetchWindow(*ws, open.tracks, key, visibleTracks());
            ++fetches;
        }
        const qint64 fetched = timer.nsecsElapsed();
        TimelineFrame f;
        f.layout = &layout;
        f.window = &window;
        f.counterRanges = &open.counterRanges;
        f.steps = &open.steps;
        f.scale = scale;
        f.geometry = geometry;
        f.originNs = open.extent.startNs;
        list.build(f);
        const qint64 built = timer.nsecsElapsed();
        QPainter painter(&image);
        paintTimeline(painter, list);
        painter.end();
        const qint64 painted = timer.nsecsElapsed();
        fetchMs += double(fetched) / 1e6;
        buildMs += double(built - fetched) / 1e6;
        paintMs += double(painted - built) / 1e6;
        return double(painted) / 1e6;
    }
};

struct Phase {
    QString name;
    std::vector<double> ms;
    int fetches = 0;
};

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    QCommandLineParser cli;
    cli.setApplicationDescription(QStringLiteral("Timeline frame times on a generated trace."));
    cli.addHelpOption();
    QCommandLineOption slicesOpt(QStringLiteral("slices"), QStringLiteral("Slices in the trace."),
        QStringLiteral("N"), QStringLiteral("10000000"));
    QCommandLineOption tracksOpt(QStringLiteral("tracks"), QStringLiteral("Thread tracks."),
        QStringLiteral("K"), QStringLiteral("64"));
    QCommandLineOption depthOpt(
        QStringLiteral("depth"), QStringLiteral("Nesting depth."), QStringLiteral("D"), QStringLiteral("8"));
    QCommandLineOption keepOpt(QStringLiteral("keep"),
        QStringLiteral("Keep (and reuse) the workspace in DIR."), QStringLiteral("DIR"));
    cli.addOptions({ slicesOpt, tracksOpt, depthOpt, keepOpt });
    cli.process(app);

    Spec spec;
    spec.slices = cli.value(slicesOpt).toLongLong();
    spec.tracks = cli.value(tracksOpt).toInt();
    spec.depth = cli.value(depthOpt).toInt();
    QTemporaryDir tmp;
    const QString dir = bench::workFolder("bench_timeline", cli.value(keepOpt), tmp);
    if (dir.isEmpty())
        return 1;
    const QString stem
        = QStringLiteral("%1/timeline-%2-%3-%4").arg(dir).arg(spec.slices).arg(spec.tracks).arg(spec.depth);
    const QString wsPath = stem + QStringLiteral(".plumb");
    double importSeconds = -1;
    if (!QFileInfo::exists(wsPath)) {
        importSeconds = bench::generateFromSpec("bench_timeline",
            std::make_unique<GeneratedTimelineImporter>(), stem + QStringLiteral(".spec"),
            QStringLiteral("slices=%1 tracks=%2 depth=%3 seed=%4")
                .arg(spec.slices)
                .arg(spec.tracks)
                .arg(spec.depth)
                .arg(spec.seed)
                .toUtf8(),
            wsPath);
        if (importSeconds < 0)
            return 1;
        std::printf("generated %lld slices on %d tracks into %s in %.1f s (import path, LOD included)\n",
            (long long)spec.slices, spec.tracks, qPrintable(wsPath), importSeconds);
    }

    const int64_t rssBefore = vmRssKiB();
    QElapsedTimer openTimer;
    openTimer.start();
    Workspace ws(wsPath, Workspace::Role::Reader);
    View view;
    view.ws = &ws;
    TimelineSource source;
    source.workspacePath = wsPath;
    source.traceId = ws.db().queryInt("SELECT min(id) FROM trace", 1);
    view.open = TimelineFetcher::readSource(ws, source);
    if (!view.open.error.isEmpty()) {
        std::fprintf(stderr, "bench_timeline: %s\n", qPrintable(view.open.error));
        return 1;
    }
    view.layout = TimelineLayout(view.open.tracks);
    view.geometry.size = QSizeF(1920, 1080);
    const double width = view.geometry.timeWidth();
    const TimeRange extent = view.open.extent;
    TimeScale scale = TimeScale::fit(extent.startNs, extent.endNs, width);
    const double firstFrameMs = view.frame(scale);
    const double openMs = double(openTimer.nsecsElapsed()) / 1e6;
    std::printf(
        "open -> first complete frame: %.1f ms (first frame alone %.1f ms; %d tracks, %lld..%lld ns)\n",
        openMs, firstFrameMs, int(view.open.tracks.size()), (long long)extent.startNs,
        (long long)extent.endNs);

    std::vector<Phase> phases;
    auto pan = [&](const QString &name, int frames, double stepPx) {
        Phase p { name, {}, 0 };
        const int before = view.fetches;
        for (int i = 0; i < frames; ++i) {
            // Back and forth across the trace part in view, as a user scrubbing.
            const double dir = (i / (frames / 2)) % 2 == 0 ? 1.0 : -1.0;
            scale = scale.panned(dir * stepPx);
            p.ms.push_back(view.frame(scale));
        }
        p.fetches = view.fetches - before;
        phases.push_back(std::move(p));
    };
    auto zoomTo = [&](const QString &name, double nsPerPx, double anchorPx) {
        Phase p { name, {}, 0 };
        const int before = view.fetches;
        while (scale.nsPerPx > nsPerPx * 1.0001) {
            scale = scale.zoomed(anchorPx, std::min(1.25, scale.nsPerPx / nsPerPx), scale.nsPerPx);
            p.ms.push_back(view.frame(scale));
        }
        p.fetches = view.fetches - before;
        phases.push_back(std::move(p));
    };
    const double fitNsPerPx = scale.nsPerPx;
    pan(QStringLiteral("fit-all pan"), 60, width * 0.05);
    scale = TimeScale::fit(extent.startNs, extent.endNs, width);
    zoomTo(QStringLiteral("zoom fit->mid"), fitNsPerPx / 256, width * 0.37);
    pan(QStringLiteral("mid zoom pan"), 120, width * 0.1);
    zoomTo(QStringLiteral("zoom mid->deep"), 0.5, width * 0.61);
    pan(QStringLiteral("deepest zoom pan"), 120, width * 0.1);
    // Scroll down to the last tracks and back at mid zoom (other tracks' data is fetched).
    {
        Phase p { QStringLiteral("vertical scroll"), {}, 0 };
        const int before = view.fetches;
        scale = TimeScale { scale.startNs - int64_t(fitNsPerPx / 256 * width / 2), fitNsPerPx / 256 };
        const double maxScroll = std::max(0.0, view.layout.contentHeight() - view.geometry.tracksHeight());
        for (int i = 0; i <= 40; ++i) {
            view.geometry.scrollY = maxScroll * (i <= 20 ? i : 40 - i) / 20.0;
            view.window.key = {}; // the visible tracks changed: refetch
            p.ms.push_back(view.frame(scale));
        }
        p.fetches = view.fetches - before;
        phases.push_back(std::move(p));
    }

    const int64_t rssAfter = vmRssKiB();
    const double frames = [&] {
        size_t n = 1;
        for (const Phase &p : phases)
            n += p.ms.size();
        return double(n);
    }();
    std::printf("mean per frame: fetch %.2f ms (when needed, amortised), draw list %.2f ms, paint %.2f ms\n",
        view.fetchMs / frames, view.buildMs / frames, view.paintMs / frames);
    QJsonObject summary;
    summary[QStringLiteral("slices")] = double(spec.slices);
    summary[QStringLiteral("tracks")] = spec.tracks;
    summary[QStringLiteral("open_to_first_frame_ms")] = openMs;
    if (importSeconds >= 0)
        summary[QStringLiteral("generate_import_s")] = importSeconds;
    std::printf("%-18s %7s %9s %9s %9s %8s\n", "phase", "frames", "median ms", "p95 ms", "max ms", "fetches");
    for (const Phase &p : phases) {
        const double med = percentile(p.ms, 0.5), p95 = percentile(p.ms, 0.95),
                     mx = p.ms.empty() ? 0 : *std::max_element(p.ms.begin(), p.ms.end());
        std::printf("%-18s %7d %9.2f %9.2f %9.2f %8d\n", qPrintable(p.name), int(p.ms.size()), med, p95, mx,
            p.fetches);
        QJsonObject o;
        o[QStringLiteral("frames")] = int(p.ms.size());
        o[QStringLiteral("median_ms")] = med;
        o[QStringLiteral("p95_ms")] = p95;
        o[QStringLiteral("max_ms")] = mx;
        o[QStringLiteral("fetches")] = p.fetches;
        summary[p.name] = o;
    }
    std::printf("view memory (RSS growth from open to end): %.1f MB; process peak RSS %.1f MB\n",
        double(rssAfter - rssBefore) / 1024.0, double(bench::readVmHwmKiB()) / 1024.0);
    summary[QStringLiteral("view_rss_growth_mb")] = double(rssAfter - rssBefore) / 1024.0;
    summary[QStringLiteral("peak_rss_mb")] = double(bench::readVmHwmKiB()) / 1024.0;
    std::printf("%s\n", QJsonDocument(summary).toJson(QJsonDocument::Compact).constData());
    return 0;
}
