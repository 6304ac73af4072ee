#include "chartexport.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
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
