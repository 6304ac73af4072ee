#include "chartstyle.h"

#include <qcustomplot.h>

#include <QEvent>

namespace plumb {

namespace {

class LegendFitter final : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize)
            fitLegend(static_cast<QCustomPlot *>(watched));
        return false;
    }
};

} // namespace

void placeLegendBelow(QCustomPlot *plot)
{
    QCPLayoutGrid *layout = plot->plotLayout();
    const int row = layout->rowCount();
    layout->addElement(row, 0, plot->legend);
    layout->setRowStretchFactor(row, 0.001);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
    plot->legend->setMargins(QMargins(4, 2, 4, 6));
    plot->legend->setIconSize(24, 10);
    plot->installEventFilter(new LegendFitter(plot));
}

void fitLegend(QCustomPlot *plot)
{
    QCPLegend *legend = plot->legend;
    int count = 0, widest = 1;
    for (int i = 0; i < legend->elementCount(); ++i) // cells of a wrapped grid can be empty
        if (const QCPAbstractLegendItem *item = legend->item(i)) {
            ++count;
            widest = std::max(widest, item->minimumOuterSizeHint().width() + legend->columnSpacing());
        }
    const QMargins m = legend->margins();
    const int columns = std::clamp((plot->width() - m.left() - m.right()) / widest, 1, std::max(1, count));
    if (columns != legend->wrap() || columns >= count) {
        legend->setWrap(columns >= count ? 0 : columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

} // namespace plumb
