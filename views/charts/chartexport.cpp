// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/chartexport.h"

#include "charts/chartstyle.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPicture>
#include <QSettings>

namespace plumb {

namespace {

const QString kLastExportDirKey = QStringLiteral("lastChartExportDir");
constexpr double kPngScale = 2.0;

void exportDialog(QCustomPlot *plot, const QString &baseName, const QString &suffix)
{
    QSettings settings;
    const QString dir = settings.value(kLastExportDirKey, QDir::homePath()).toString();
    const QString filter = suffix == QLatin1String("pdf") ? QObject::tr("PDF documents (*.pdf)")
                                                          : QObject::tr("PNG images (*.png)");
    QString path = QFileDialog::getSaveFileName(
        plot, QObject::tr("Export Chart"), dir + u'/' + baseName + u'.' + suffix, filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += u'.' + suffix;
    settings.setValue(kLastExportDirKey, QFileInfo(path).absolutePath());
    if (!exportChart(plot, path))
        QMessageBox::warning(plot, QObject::tr("Export Chart"),
            QObject::tr("The chart could not be written to %1.").arg(QDir::toNativeSeparators(path)));
}

} // namespace

bool exportChart(QCustomPlot *plot, const QString &path)
{
    if (QFileInfo(path).suffix().compare(QLatin1String("pdf"), Qt::CaseInsensitive) == 0)
        return plot->savePdf(path, plot->width(), plot->height());
    return plot->savePng(path, plot->width(), plot->height(), kPngScale);
}

void paintChart(QCustomPlot *plot, QPainter &painter, const QRectF &target, const QFont *font)
{
    if (font) {
        QFont bold = *font;
        bold.setBold(true);
        for (QCPAxisRect *rect : plot->axisRects())
            for (QCPAxis *axis : rect->axes()) {
                axis->setLabelFont(*font);
                axis->setTickLabelFont(*font);
            }
        plot->legend->setFont(*font);
        for (int i = 0; i < plot->legend->elementCount(); ++i) // cells of a wrapped grid can be empty
            if (QCPAbstractLegendItem *item = plot->legend->item(i))
                item->setFont(*font);
        for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
            if (auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->elementAt(i)))
                title->setFont(bold);
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
                text->setFont(*font);
    }
    const QSize size = target.size().toSize();
    plot->resize(size);
    if (plot->legend->layout() == plot->plotLayout())
        fitLegend(plot); // a legend below the plot (placeLegendBelow) wraps to the new width
    plot->replot(QCustomPlot::rpImmediateRefresh); // charts that reduce their data to the width do it now
    // QCustomPlot draws through its own QCPPainter, so record the plot and replay it: vector on a PDF.
    QPicture picture;
    {
        QCPPainter recorder(&picture);
        plot->toPainter(&recorder, size.width(), size.height());
    }
    painter.save();
    painter.setClipRect(target);
    painter.translate(target.topLeft());
    // Replaying scales the picture by the device's DPI over the picture's (a 72 dpi PDF page would get
    // it at three quarters): undo that, so the chart fills the target in the painter's units.
    if (const QPaintDevice *device = painter.device(); device && device->logicalDpiX() > 0)
        painter.scale(double(picture.logicalDpiX()) / device->logicalDpiX(),
            double(picture.logicalDpiY()) / device->logicalDpiY());
    painter.drawPicture(QPointF(0, 0), picture);
    painter.restore();
}

void installChartExportMenu(QCustomPlot *plot, const QString &baseName)
{
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(plot, &QWidget::customContextMenuRequested, plot, [plot, baseName](const QPoint &pos) {
        QMenu menu(plot);
        menu.addAction(QObject::tr("Export PNG…"), plot,
            [plot, baseName] { exportDialog(plot, baseName, QStringLiteral("png")); });
        menu.addAction(QObject::tr("Export PDF…"), plot,
            [plot, baseName] { exportDialog(plot, baseName, QStringLiteral("pdf")); });
        menu.exec(plot->mapToGlobal(pos));
    });
}

} // namespace plumb
