// SPDX-License-Identifier: GPL-3.0-or-later
// bench_scalarchart: how the Experiments tab's scalar chart holds up with many overlaid runs. Builds
// R runs x P points (default 100 x 10,000: loss-like curves with noise, the shape bench_tfevents
// imports) in memory, hands them to a ScalarChart of W x H pixels (default 1200 x 700, smoothing
// 0.6 so that every run draws a raw and a smoothed line), then times, on the offscreen platform:
//
//   full view   : replotNow() at fit-all: min/max decimation of every line for the width + replot;
//   zoom        : the x range shrunk 1.25x per frame towards the middle (decimated again each frame);
//   pan         : at 1/16 of the steps, the range moved by 1/20 of its width per frame;
//   smoothing   : a new weight (EMA of every line again) + decimation + replot.
//
// Prints median and p90 per phase and a JSON line. Usage:
//   bench_scalarchart [--runs R] [--points P] [--frames N] [--width W] [--height H] [--smoothing S]

#include "charts/scalarchart.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

using namespace plumb;

namespace {

struct Stats {
    double median = 0, p90 = 0, max = 0;
};

Stats stats(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    if (ms.empty())
        return {};
    auto at = [&](double q) { return ms[std::min(ms.size() - 1, size_t(q * double(ms.size())))]; };
    return { at(0.5), at(0.9), ms.back() };
}

std::vector<ScalarLine> generate(int runs, int points)
{
    std::mt19937_64 rng(1);
    std::normal_distribution<double> noise(0, 1);
    std::vector<ScalarLine> lines;
    for (int r = 0; r < runs; ++r) {
        ScalarLine line;
        line.name = QStringLiteral("run_%1").arg(r);
        line.color = QColor::fromHsv((r * 137) % 360, 170, 200);
        line.parts.resize(1);
        auto &part = line.parts[0];
        part.x.reserve(size_t(points));
        part.y.reserve(size_t(points));
        const double rate = 2e-4 * (1 + r % 7);
        for (int i = 0; i < points; ++i) {
            part.x.push_back(i);
            part.y.push_back(2.5 * std::exp(-rate * i) + 0.3 + 0.05 * noise(rng));
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption runsOpt(
        QStringLiteral("runs"), QStringLiteral("Runs overlaid."), QStringLiteral("R"), QStringLiteral("100"));
    const QCommandLineOption pointsOpt(QStringLiteral("points"), QStringLiteral("Points per run."),
        QStringLiteral("P"), QStringLiteral("10000"));
    const QCommandLineOption framesOpt(QStringLiteral("frames"), QStringLiteral("Frames per phase."),
        QStringLiteral("N"), QStringLiteral("40"));
    const QCommandLineOption widthOpt(QStringLiteral("width"), QStringLiteral("Chart width (px)."),
        QStringLiteral("W"), QStringLiteral("1200"));
    const QCommandLineOption heightOpt(QStringLiteral("height"), QStringLiteral("Chart height (px)."),
        QStringLiteral("H"), QStringLiteral("700"));
    const QCommandLineOption smoothingOpt(QStringLiteral("smoothing"), QStringLiteral("Smoothing weight."),
        QStringLiteral("S"), QStringLiteral("0.6"));
    parser.addOptions({ runsOpt, pointsOpt, framesOpt, widthOpt, heightOpt, smoothingOpt });
    parser.process(app);
    const int runs = parser.value(runsOpt).toInt();
    const int points = parser.value(pointsOpt).toInt();
    const int frames = std::max(1, parser.value(framesOpt).toInt());
    const double smoothing = parser.value(smoothingOpt).toDouble();

    ScalarChart chart(QStringLiteral("bench"));
    chart.resize(parser.value(widthOpt).toInt(), parser.value(heightOpt).toInt());
    chart.show();
    QCoreApplication::processEvents();
    chart.setSmoothing(smoothing);

    QElapsedTimer timer;
    timer.start();
    chart.setLines(generate(runs, points), ScalarChart::XKind::Step);
    const double setMs = double(timer.nsecsElapsed()) / 1e6;
    chart.replotNow();

    auto frame = [&](auto &&change) {
        change();
        timer.restart();
        chart.redraw(); // decimates first: the range changed
        return double(timer.nsecsElapsed()) / 1e6;
    };

    std::vector<double> full, zoom, pan, smooth;
    for (int f = 0; f < frames; ++f) {
        timer.restart();
        chart.replotNow();
        full.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    const double mid = points / 2.0;
    double half = points / 2.0;
    for (int f = 0; f < frames; ++f) {
        half /= 1.25;
        half = std::max(half, 20.0);
        zoom.push_back(frame([&] { chart.setXRange(mid - half, mid + half); }));
    }
    const double width = points / 16.0;
    double from = points / 8.0;
    for (int f = 0; f < frames; ++f) {
        from += width / 20;
        pan.push_back(frame([&] { chart.setXRange(from, from + width); }));
    }
    chart.fitAll();
    for (int f = 0; f < frames; ++f) {
        timer.restart();
        chart.setSmoothing(f % 2 ? smoothing : std::min(0.999, smoothing + 0.2));
        chart.replotNow();
        smooth.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    chart.fitAll();
    chart.replotNow();
    int drawn = 0;
    for (int i = 0; i < chart.lineCount(); ++i)
        drawn += chart.drawnPointCount(i) + chart.drawnPointCount(i, 0, true);

    const Stats sf = stats(full), sz = stats(zoom), sp = stats(pan), ss = stats(smooth);
    std::printf("scalar chart: %d runs x %d points (%.1fM), %dx%d px, smoothing %.3f, %d frames per phase\n",
        runs, points, double(runs) * points / 1e6, chart.width(), chart.height(), smoothing, frames);
    std::printf("  setLines (EMA of every line, graphs)  %8.1f ms\n", setMs);
    std::printf("  points handed to QCustomPlot at fit-all: %d (raw + smoothed, all runs)\n", drawn);
    std::printf("  %-28s median %7.1f ms   p90 %7.1f ms   max %7.1f ms\n", "full view (decimate+replot)",
        sf.median, sf.p90, sf.max);
    std::printf("  %-28s median %7.1f ms   p90 %7.1f ms   max %7.1f ms\n", "zoom (1.25x per frame)",
        sz.median, sz.p90, sz.max);
    std::printf(
        "  %-28s median %7.1f ms   p90 %7.1f ms   max %7.1f ms\n", "pan at 1/16", sp.median, sp.p90, sp.max);
    std::printf("  %-28s median %7.1f ms   p90 %7.1f ms   max %7.1f ms\n", "smoothing change", ss.median,
        ss.p90, ss.max);
    const bool met = sf.median < 50 && sz.median < 50 && sp.median < 50;
    std::printf("  target: redraw median < 50 ms: %s\n", met ? "PASS" : "MISS");
    QJsonObject j { { QStringLiteral("runs"), runs }, { QStringLiteral("points"), points },
        { QStringLiteral("setLinesMs"), setMs }, { QStringLiteral("fullMedianMs"), sf.median },
        { QStringLiteral("fullP90Ms"), sf.p90 }, { QStringLiteral("zoomMedianMs"), sz.median },
        { QStringLiteral("zoomP90Ms"), sz.p90 }, { QStringLiteral("panMedianMs"), sp.median },
        { QStringLiteral("panP90Ms"), sp.p90 }, { QStringLiteral("smoothingMedianMs"), ss.median },
        { QStringLiteral("smoothingP90Ms"), ss.p90 }, { QStringLiteral("drawnPoints"), drawn } };
    std::printf("%s\n", QJsonDocument(j).toJson(QJsonDocument::Compact).constData());
    return 0;
}
