// SPDX-License-Identifier: GPL-3.0-or-later
// RasterGraph: the lines it sets into one image cover the pixels QPainter's 1-px polyline covers
// (each within a pixel of the other), gaps stay gaps, lines leaving the rect are clipped, and PDF
// export or a scaled painter takes QCPGraph's own drawing.

#include "charts/rastergraph.h"

#include <QtTest>

#include <cmath>

using namespace plumb;

namespace {

const QColor kLine(200, 30, 30);

// The pixels of `img` inside `rect` that have the line's colour.
QVector<QPoint> linePixels(const QImage &img, const QRect &rect, const QColor &c)
{
    QVector<QPoint> out;
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x)
            if (img.pixelColor(x, y) == c)
                out << QPoint(x, y);
    return out;
}

// The share of `a`'s pixels that have a pixel of `b` within one pixel.
double coveredShare(const QVector<QPoint> &a, const QVector<QPoint> &b, const QSize &size)
{
    QVector<bool> in(size.width() * size.height());
    for (const QPoint &p : b)
        in[p.y() * size.width() + p.x()] = true;
    int covered = 0;
    for (const QPoint &p : a) {
        bool near = false;
        for (int dy = -1; dy <= 1 && !near; ++dy)
            for (int dx = -1; dx <= 1 && !near; ++dx) {
                const int x = p.x() + dx, y = p.y() + dy;
                near = x >= 0 && y >= 0 && x < size.width() && y < size.height() && in[y * size.width() + x];
            }
        covered += near;
    }
    return a.isEmpty() ? 1.0 : double(covered) / a.size();
}

} // namespace

class TestRasterGraph : public QObject {
    Q_OBJECT

    // A plot of `keys`/`values` drawn either through the raster or through QCPGraph.
    QImage render(const QVector<double> &keys, const QVector<double> &values, bool raster, QRect *axisRect,
        bool *drewRastered = nullptr)
    {
        QCustomPlot plot;
        plot.resize(600, 400);
        auto *lines = new LineRaster(&plot);
        auto *g = new RasterGraph(plot.xAxis, plot.yAxis, raster ? lines : nullptr);
        g->setPen(QPen(kLine, 1));
        g->setAntialiased(false);
        g->setData(keys, values, true);
        plot.xAxis->setRange(0, 100);
        plot.yAxis->setRange(-1.5, 1.5);
        plot.xAxis->grid()->setVisible(false);
        plot.yAxis->grid()->setVisible(false);
        plot.show();
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QImage img = plot.grab().toImage().convertToFormat(QImage::Format_ARGB32);
        const qreal dpr = img.devicePixelRatio(); // 2 under QT_SCALE_FACTOR=2 (tst_rastergraph_hidpi)
        const QRect r = plot.axisRect()->rect();
        *axisRect = QRect(QPoint(qRound(r.left() * dpr), qRound(r.top() * dpr)), r.size() * dpr);
        if (drewRastered)
            *drewRastered = g->drewRastered();
        return img;
    }

private Q_SLOTS:
    void matchesPolyline_data()
    {
        QTest::addColumn<int>("points");
        QTest::newRow("dense: many points a column") << 20000;
        QTest::newRow("about one a column") << 500;
        QTest::newRow("sparse: lines across columns") << 40;
    }
    void matchesPolyline()
    {
        QFETCH(int, points);
        QVector<double> keys, values;
        for (int i = 0; i < points; ++i) {
            const double x = 100.0 * i / (points - 1);
            keys << x;
            values << std::sin(x / 7) + 0.3 * std::sin(x * 3.1);
        }
        QRect rect;
        bool rastered = false;
        const QImage a = render(keys, values, true, &rect, &rastered);
        QVERIFY(rastered);
        const QImage b = render(keys, values, false, &rect);
        const QVector<QPoint> pa = linePixels(a, rect, kLine), pb = linePixels(b, rect, kLine);
        if (qEnvironmentVariableIsSet("PLUMB_DUMP")) {
            a.save(QStringLiteral("/tmp/raster_%1_a.png").arg(points));
            b.save(QStringLiteral("/tmp/raster_%1_b.png").arg(points));
        }
        QVERIFY(pa.size() > rect.width() / 2);
        // Each within a pixel of the other: no pixel drawn where QPainter draws none, none missed.
        // On a 2x screen a steep stretch of a dense line, 2 device pixels wide, differs from
        // QPainter's by a pixel more often (about 1% of its pixels, at the turns).
        const double share = a.devicePixelRatio() > 1 ? 0.985 : 0.995;
        QVERIFY2(coveredShare(pa, pb, a.size()) > share,
            qPrintable(QString::number(coveredShare(pa, pb, a.size()))));
        QVERIFY2(coveredShare(pb, pa, a.size()) > share,
            qPrintable(QString::number(coveredShare(pb, pa, a.size()))));
    }

    // On a 2x screen the lines are drawn in device pixels, as QPainter draws them: a line's top
    // falls on odd device rows as often as on even ones, where a canvas of widget pixels scaled up
    // would put every one on an even row (blocks of 2x2).
    void sharpOnHighDpi()
    {
        QVector<double> keys, values;
        for (int i = 0; i < 500; ++i) {
            keys << 100.0 * i / 499;
            values << std::sin(keys.back() / 9);
        }
        QRect rect;
        bool rastered = false;
        const QImage a = render(keys, values, true, &rect, &rastered);
        QVERIFY(rastered);
        if (a.devicePixelRatio() < 2)
            QSKIP("a 1x screen: tst_rastergraph_hidpi runs this with QT_SCALE_FACTOR=2");
        int odd = 0, columns = 0;
        for (int x = rect.left(); x <= rect.right(); ++x)
            for (int y = rect.top(); y <= rect.bottom(); ++y)
                if (a.pixelColor(x, y) == kLine) {
                    ++columns;
                    odd += (y - rect.top()) % 2;
                    break;
                }
        QVERIFY(columns > rect.width() / 2);
        QVERIFY2(odd > columns / 5,
            qPrintable(QStringLiteral("%1 of %2 columns start on an odd row").arg(odd).arg(columns)));
    }

    // NaN is a gap; points far outside the ranges are clipped to the rect, not wrapped.
    void gapsAndClipping()
    {
        const double nan = std::nan("");
        QVector<double> keys { -1e9, 10, 20, 30, 40, 50, 60, 1e9 };
        QVector<double> values { 0, 0, 0, nan, 1, 1, 1e12, 1 };
        QRect rect;
        const QImage a = render(keys, values, true, &rect);
        const QImage b = render(keys, values, false, &rect);
        const QVector<QPoint> pa = linePixels(a, rect, kLine), pb = linePixels(b, rect, kLine);
        if (qEnvironmentVariableIsSet("PLUMB_DUMP")) {
            a.save(QStringLiteral("/tmp/raster_a.png"));
            b.save(QStringLiteral("/tmp/raster_b.png"));
        }
        QVERIFY(!pa.isEmpty());
        QVERIFY(coveredShare(pa, pb, a.size()) > 0.99);
        QVERIFY(coveredShare(pb, pa, a.size()) > 0.99);
        // Nothing between x = 20 and x = 40 (the NaN at 30).
        QCustomPlot plot;
        plot.resize(600, 400);
        plot.xAxis->setRange(0, 100);
        plot.replot();
        const qreal dpr = a.devicePixelRatio();
        const int from = int(plot.xAxis->coordToPixel(22) * dpr),
                  to = int(plot.xAxis->coordToPixel(38) * dpr);
        for (const QPoint &p : pa)
            QVERIFY2(p.x() < from || p.x() > to,
                qPrintable(QStringLiteral("pixel at %1,%2").arg(p.x()).arg(p.y())));
    }

    // Vector export draws as QCPGraph does.
    void pdfExportDrawsVectors()
    {
        QCustomPlot plot;
        plot.resize(300, 200);
        auto *g = new RasterGraph(plot.xAxis, plot.yAxis, new LineRaster(&plot));
        g->setPen(QPen(kLine, 1));
        g->setData(QVector<double> { 0, 1, 2 }, QVector<double> { 0, 1, 0 });
        plot.rescaleAxes();
        QTemporaryDir dir;
        QVERIFY(plot.savePdf(dir.filePath(QStringLiteral("a.pdf"))));
        QVERIFY(!g->drewRastered());
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(g->drewRastered());
    }
};

QTEST_MAIN(TestRasterGraph)
#include "tst_rastergraph.moc"
