// SPDX-License-Identifier: GPL-3.0-or-later
#include "lineage/lineagepanel.h"

#include "backgroundanalysis.h"
#include "ingest/lineagelinks.h"
#include "lineage/lineagescene.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "timeline/timescale.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFontMetrics>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPainter>
#include <QPdfWriter>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <functional>
#include <unordered_map>

namespace plumb {

namespace {

// Wheel zoom about the cursor, drag to pan, a double click hands the item under the cursor on.
class GraphView final : public QGraphicsView {
public:
    explicit GraphView(QGraphicsScene *scene)
        : QGraphicsView(scene)
    {
        setDragMode(QGraphicsView::ScrollHandDrag);
        setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
        setRenderHint(QPainter::Antialiasing);
    }
    std::function<void(QGraphicsItem *)> onDoubleClick;
    QPointF focusCentre;
    bool userZoomed = false;

    // A small graph fits the view (at most 1.2x); a larger one opens at the smallest zoom at which
    // the node labels still read (at 0.45x a 9 pt label was 5 px tall), centred on the focus, and
    // scrolls or zooms out from there.
    void fitScene()
    {
        constexpr double kReadableZoom = 0.8;
        resetTransform();
        const QRectF bounds = sceneRect();
        if (bounds.isEmpty() || viewport()->width() < 50)
            return;
        const double fit
            = std::min(viewport()->width() / bounds.width(), viewport()->height() / bounds.height());
        const double zoom = std::clamp(fit, kReadableZoom, 1.2);
        scale(zoom, zoom);
        centerOn(fit < kReadableZoom ? focusCentre : bounds.center());
    }

protected:
    void wheelEvent(QWheelEvent *e) override
    {
        const double factor = e->angleDelta().y() > 0 ? 1.2 : 1 / 1.2;
        const double zoom = transform().m11() * factor;
        if (zoom > 0.05 && zoom < 8)
            scale(factor, factor);
        userZoomed = true;
        e->accept();
    }
    void resizeEvent(QResizeEvent *e) override
    {
        QGraphicsView::resizeEvent(e);
        if (!userZoomed)
            fitScene();
    }
    void mouseDoubleClickEvent(QMouseEvent *e) override
    {
        if (onDoubleClick)
            onDoubleClick(itemAt(e->pos()));
        QGraphicsView::mouseDoubleClickEvent(e);
    }
};

// The node's index from an item of its box (the box or one of its labels).
int indexOf(const QGraphicsItem *item)
{
    while (item && !item->data(kLineageIndexKey).isValid())
        item = item->parentItem();
    return item ? item->data(kLineageIndexKey).toInt() : -1;
}

QString directionWords(LineageDirection d)
{
    switch (d) {
    case LineageDirection::Up:
        return LineagePanel::tr("upstream");
    case LineageDirection::Down:
        return LineagePanel::tr("downstream");
    case LineageDirection::Both:
        break;
    }
    return LineagePanel::tr("both ways");
}

} // namespace

LineagePanel::LineagePanel(QWidget *parent)
    : QWidget(parent)
    , m_search(new QLineEdit)
    , m_direction(new QComboBox)
    , m_depth(new QSpinBox)
    , m_fold(new QCheckBox(tr("Fold repeated runs")))
    , m_export(new QPushButton(tr("Export…")))
    , m_status(new QLabel)
    , m_scene(new QGraphicsScene(this))
    , m_details(new QTextBrowser)
    , m_openRun(new QPushButton(tr("Open Run")))
    , m_linkRun(new QPushButton(tr("Link to Run…")))
{
    m_search->setPlaceholderText(tr("Find a node: id, key or name (Enter)"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Find lineage node"));
    m_direction->addItem(tr("Both ways"), int(LineageDirection::Both));
    m_direction->addItem(tr("Upstream (made from)"), int(LineageDirection::Up));
    m_direction->addItem(tr("Downstream (made into)"), int(LineageDirection::Down));
    m_direction->setAccessibleName(tr("Direction"));
    m_depth->setRange(1, 50);
    m_depth->setValue(3);
    m_depth->setPrefix(tr("depth "));
    m_depth->setAccessibleName(tr("Depth"));
    m_fold->setToolTip(
        tr("Draw the runs of one job as one node, and the artifacts of one type those runs made or "
           "read: a job that ran a thousand times stays readable"));
    m_export->setToolTip(tr("Save the drawn graph as PNG, PDF or SVG"));
    m_status->setWordWrap(true);

    auto *top = new QHBoxLayout;
    top->addWidget(m_search, 2);
    top->addWidget(m_direction);
    top->addWidget(m_depth);
    top->addWidget(m_fold);
    top->addWidget(m_export);

    auto *view = new GraphView(m_scene);
    view->setAccessibleName(tr("Lineage graph"));
    view->onDoubleClick = [this](QGraphicsItem *item) {
        if (const int i = indexOf(item); i >= 0 && size_t(i) < m_graph.nodes.size())
            focusNode(m_graph.nodes[size_t(i)].id);
    };
    m_view = view;
    m_details->setOpenLinks(false);
    m_details->setAccessibleName(tr("Node details"));
    auto *side = new QWidget;
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_details, 1);
    sideLayout->addWidget(m_openRun);
    sideLayout->addWidget(m_linkRun);
    m_openRun->setEnabled(false);
    m_linkRun->setEnabled(false);
    m_linkRun->setToolTip(tr("Join this node to an experiment run or trace run of the workspace"));
    auto *split = new QSplitter;
    split->addWidget(m_view);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({ 900, 320 });
    side->setMinimumWidth(220);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_search, &QLineEdit::returnPressed, this, [this] { search(m_search->text()); });
    connect(m_direction, &QComboBox::currentIndexChanged, this, [this] { request(); });
    connect(m_depth, &QSpinBox::valueChanged, this, [this] { request(); });
    connect(m_fold, &QCheckBox::toggled, this, [this] { request(); });
    connect(m_scene, &QGraphicsScene::selectionChanged, this, [this] {
        const auto items = m_scene->selectedItems();
        if (!items.isEmpty())
            showDetails(indexOf(items.front()));
    });
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path
            = QFileDialog::getSaveFileName(this, tr("Export Lineage Graph"), QStringLiteral("lineage.png"),
                tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"));
        if (!path.isEmpty())
            exportTo(path);
    });
    connect(m_details, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == QLatin1String("node"))
            focusNode(url.path().toLongLong());
    });
    connect(m_linkRun, &QPushButton::clicked, this, [this] {
        if (m_selected < 0 || size_t(m_selected) >= m_graph.nodes.size() || m_workspacePath.isEmpty())
            return;
        QStringList items;
        QList<int64_t> ids;
        try {
            Workspace ws(m_workspacePath, Workspace::Role::Reader);
            SqliteStmt runs(ws.db(), "SELECT id, name FROM run ORDER BY id");
            while (runs.step()) {
                ids << runs.columnInt(0);
                items << QStringLiteral("%1  %2").arg(runs.columnInt(0)).arg(runs.columnText(1));
            }
        } catch (const std::exception &) {
        }
        if (items.isEmpty())
            return;
        bool ok = false;
        const QString chosen = QInputDialog::getItem(this, tr("Link to Run"),
            tr("Run for %1:").arg(m_graph.nodes[size_t(m_selected)].name), items, 0, false, &ok);
        if (ok)
            linkToRun(m_graph.nodes[size_t(m_selected)].id, ids.value(int(items.indexOf(chosen))));
    });
    connect(m_openRun, &QPushButton::clicked, this, [this] {
        if (m_selected >= 0 && size_t(m_selected) < m_graph.nodes.size()
            && !m_graph.nodes[size_t(m_selected)].runIds.isEmpty())
            Q_EMIT openRunRequested(m_graph.nodes[size_t(m_selected)].runIds.front());
    });
    rebuildScene();
}

LineagePanel::~LineagePanel() = default;

void LineagePanel::setWorkspace(const QString &workspacePath)
{
    if (workspacePath != m_workspacePath)
        m_focus = 0;
    m_workspacePath = workspacePath;
    request();
}

void LineagePanel::close()
{
    m_workspacePath.clear();
    m_analysis.cancel();
    m_focus = 0;
    apply(Result {});
}

void LineagePanel::focusNode(int64_t nodeId)
{
    m_focus = nodeId;
    request();
}

void LineagePanel::search(const QString &what)
{
    if (!what.trimmed().isEmpty())
        request(what.trimmed());
}

void LineagePanel::setDirection(LineageDirection direction)
{
    m_direction->setCurrentIndex(m_direction->findData(int(direction)));
}

void LineagePanel::setDepth(int depth)
{
    m_depth->setValue(depth);
}

void LineagePanel::setFoldRepeatedRuns(bool fold)
{
    m_fold->setChecked(fold);
}

void LineagePanel::request(const QString &searchText)
{
    if (m_workspacePath.isEmpty())
        return;
    const int64_t focus = m_focus;
    const auto direction = LineageDirection(m_direction->currentData().toInt());
    const int depth = m_depth->value();
    const bool fold = m_fold->isChecked();
    m_analysis.start<Result>(
        this, m_workspacePath,
        [focus, direction, depth, fold, searchText](Workspace &ws, Result &r) {
            LineageReader reader(ws);
            r.counts = reader.counts();
            r.focus = focus;
            if (!searchText.isEmpty()) {
                std::vector<LineageNodeInfo> found = reader.find(searchText);
                if (found.size() == 1)
                    r.focus = found[0].id;
                else
                    r.matches = std::move(found); // the focus stays
            }
            if (r.focus == 0 || reader.node(r.focus).id == 0)
                r.focus = reader.defaultFocus();
            if (r.focus != 0)
                r.graph = reader.neighbourhood(r.focus, direction, depth, 2000);
            if (fold)
                r.graph = collapseRepeatedRuns(r.graph);
        },
        [this](const Result &r) { apply(r); });
}

void LineagePanel::apply(const Result &r)
{
    m_error = r.error;
    m_counts = r.counts;
    m_focus = r.focus;
    m_graph = r.graph;
    m_matches = r.matches;
    std::vector<std::pair<int, int>> edges;
    std::unordered_map<int64_t, int> index;
    for (size_t i = 0; i < m_graph.nodes.size(); ++i)
        index.emplace(m_graph.nodes[i].id, int(i));
    for (const LineageEdgeInfo &e : m_graph.edges)
        if (index.count(e.from) && index.count(e.to))
            edges.emplace_back(index[e.from], index[e.to]);
    m_layout.compute(int(m_graph.nodes.size()), edges);
    rebuildScene();
    showDetails(m_graph.nodes.empty() ? -1 : 0);
    if (!m_matches.empty()) {
        QString html = tr("<p><b>%1 nodes match</b>; choose one:</p><ul>").arg(m_matches.size());
        for (size_t i = 0; i < m_matches.size() && i < 50; ++i)
            html += QStringLiteral("<li><a href=\"node:%1\">%2</a> (%3 %4)</li>")
                        .arg(m_matches[i].id)
                        .arg(m_matches[i].name.toHtmlEscaped(), m_matches[i].kind,
                            m_matches[i].type.toHtmlEscaped());
        m_details->setHtml(html + QStringLiteral("</ul>"));
    }
    m_status->setText(statusText());
    Q_EMIT loaded();
}

QString LineagePanel::statusText() const
{
    if (m_workspacePath.isEmpty())
        return tr("No workspace.");
    if (!m_error.isEmpty())
        return tr("The lineage could not be read: %1").arg(m_error);
    const int64_t total = m_counts.artifacts + m_counts.executions + m_counts.contexts;
    if (total == 0)
        return tr("No lineage in this workspace: import an ML Metadata store (its SQLite file) or "
                  "OpenLineage events "
                  "(JSON, JSON array or NDJSON).");
    QString s = m_counts.summary();
    if (!m_graph.nodes.empty())
        s += tr(" · showing %1 nodes %2 of %3, up to %4 edges away")
                 .arg(m_graph.nodes.size())
                 .arg(directionWords(LineageDirection(m_direction->currentData().toInt())),
                     m_graph.nodes[0].name)
                 .arg(m_depth->value());
    if (m_graph.truncated)
        s += tr(" (stopped at %1 nodes: lower the depth)").arg(m_graph.nodes.size());
    if (!m_layout.reversedEdges().empty())
        s += tr(" · %n edge(s) close a cycle (dashed)", nullptr, int(m_layout.reversedEdges().size()));
    return s;
}

void LineagePanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange && !m_graph.nodes.empty())
        rebuildScene();
    QWidget::changeEvent(event);
}

void LineagePanel::rebuildScene()
{
    m_scene->clear();
    m_scene->setBackgroundBrush(palette().base());
    if (m_graph.nodes.empty())
        return;
    drawLineageScene(*m_scene, m_graph, m_layout, font(), palette().color(QPalette::Text));
    auto *view = static_cast<GraphView *>(m_view);
    view->focusCentre = m_layout.rect(0).center();
    view->userZoomed = false;
    view->fitScene();
}

void LineagePanel::showDetails(int index)
{
    m_selected = index;
    if (index < 0 || size_t(index) >= m_graph.nodes.size()) {
        m_details->setHtml(m_graph.nodes.empty() ? QString() : tr("Click a node to see its properties."));
        m_openRun->setEnabled(false);
        m_linkRun->setEnabled(false);
        return;
    }
    const LineageNodeInfo &n = m_graph.nodes[size_t(index)];
    QString html = QStringLiteral("<h3>%1</h3><p>%2 <b>%3</b>")
                       .arg(n.name.toHtmlEscaped(), n.kind, n.type.toHtmlEscaped());
    if (!n.state.isEmpty())
        html += QStringLiteral(" · %1").arg(n.state.toHtmlEscaped());
    html += QStringLiteral(" · #%1</p>").arg(n.id);
    auto row = [](const QString &k, const QString &v) {
        return QStringLiteral("<tr><td><i>%1</i></td><td>%2</td></tr>")
            .arg(k.toHtmlEscaped(), v.toHtmlEscaped());
    };
    html += QStringLiteral("<table cellspacing=4>");
    html += row(tr("key"), n.key);
    if (!n.uri.isEmpty())
        html += row(tr("uri"), n.uri);
    auto time = [](int64_t ns) {
        return QDateTime::fromMSecsSinceEpoch(ns / 1000000, Qt::UTC).toString(Qt::ISODateWithMs);
    };
    if (n.startNs)
        html += row(tr("start"), time(n.startNs));
    if (n.endNs)
        html += row(tr("end"), time(n.endNs));
    if (n.startNs && n.endNs > n.startNs)
        html += row(tr("duration"), formatDuration(n.endNs - n.startNs));
    if (!n.contexts.isEmpty())
        html += row(tr("in"), n.contexts.join(QStringLiteral(", ")));
    if (n.members.size() > 1) {
        QStringList members;
        for (int64_t m : n.members)
            members << QStringLiteral("<a href=\"node:%1\">#%1</a>").arg(m);
        html
            += QStringLiteral("<tr><td><i>%1</i></td><td>%2</td></tr>")
                   .arg(tr("folded"),
                       tr("%n nodes: ", nullptr, int(n.members.size())) + members.join(QStringLiteral(", ")));
    }
    if (!n.runIds.isEmpty()) {
        QStringList runs;
        for (int64_t r : n.runIds)
            runs << QString::number(r);
        html += row(tr("linked runs"), runs.join(QStringLiteral(", ")));
    }
    html += QStringLiteral("</table>");
    if (!n.properties.isEmpty() && n.properties != QLatin1String("{}"))
        html += QStringLiteral("<p><i>properties</i></p><pre style=\"white-space: pre-wrap\">%1</pre>")
                    .arg(QString::fromUtf8(
                        QJsonDocument::fromJson(n.properties.toUtf8()).toJson(QJsonDocument::Indented))
                             .toHtmlEscaped());
    if (index != 0)
        html += QStringLiteral("<p><a href=\"node:%1\">%2</a></p>").arg(n.id).arg(tr("Focus on this node"));
    m_details->setHtml(html);
    m_openRun->setEnabled(!n.runIds.isEmpty());
    m_linkRun->setEnabled(true);
    m_openRun->setText(n.runIds.isEmpty() ? tr("Open Run") : tr("Open Run %1").arg(n.runIds.front()));
    m_openRun->setToolTip(
        tr("The run's Doctor verdict when it has traces, else its metrics and config in Experiments"));
}

bool LineagePanel::linkToRun(int64_t nodeId, int64_t runId)
{
    try {
        Workspace ws(m_workspacePath, Workspace::Role::Writer);
        if (!linkNodeToRun(ws.db(), nodeId, runId)) {
            m_error = tr("node %1 or run %2 is not in the workspace").arg(nodeId).arg(runId);
            m_status->setText(statusText());
            return false;
        }
    } catch (const std::exception &e) {
        m_error = QString::fromUtf8(e.what());
        m_status->setText(statusText());
        return false;
    }
    request();
    return true;
}

QString LineagePanel::detailsText() const
{
    return m_details->toPlainText();
}

namespace {

QString svgColour(const QColor &c)
{
    return c.name(QColor::HexRgb);
}

// The scene's items (edge paths, node boxes, their labels) as SVG, in drawing order.
QByteArray sceneSvg(const QGraphicsScene &scene, const QColor &background)
{
    const QRectF r = scene.sceneRect();
    QString svg = QStringLiteral(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" "
        "viewBox=\"%3 %4 %1 %2\">\n<rect x=\"%3\" y=\"%4\" width=\"%1\" height=\"%2\" fill=\"%5\"/>\n")
                      .arg(r.width())
                      .arg(r.height())
                      .arg(r.left())
                      .arg(r.top())
                      .arg(svgColour(background));
    const auto items = scene.items(Qt::AscendingOrder);
    for (const QGraphicsItem *item : items) {
        if (const auto *p = dynamic_cast<const QGraphicsPathItem *>(item)) {
            const QPainterPath path = p->path();
            QString d;
            for (int i = 0; i < path.elementCount(); ++i) {
                const QPainterPath::Element e = path.elementAt(i);
                if (e.type == QPainterPath::MoveToElement)
                    d += QStringLiteral("M%1 %2 ").arg(e.x).arg(e.y);
                else if (e.type == QPainterPath::LineToElement)
                    d += QStringLiteral("L%1 %2 ").arg(e.x).arg(e.y);
                else if (e.type == QPainterPath::CurveToElement)
                    d += QStringLiteral("C%1 %2 ").arg(e.x).arg(e.y);
                else
                    d += QStringLiteral("%1 %2 ").arg(e.x).arg(e.y);
            }
            svg += QStringLiteral(
                "<path d=\"%1\" fill=\"none\" stroke=\"%2\" stroke-opacity=\"%3\" stroke-width=\"%4\"%5/>\n")
                       .arg(d.trimmed(), svgColour(p->pen().color()))
                       .arg(p->pen().color().alphaF())
                       .arg(p->pen().widthF())
                       .arg(p->pen().style() == Qt::DashLine ? QStringLiteral(" stroke-dasharray=\"5 3\"")
                                                             : QString());
        } else if (const auto *b = dynamic_cast<const QGraphicsRectItem *>(item)) {
            const QRectF box = b->rect();
            svg += QStringLiteral(
                "<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"%5\" stroke=\"%6\" "
                "stroke-width=\"%7\"/>\n")
                       .arg(box.x())
                       .arg(box.y())
                       .arg(box.width())
                       .arg(box.height())
                       .arg(svgColour(b->brush().color()), svgColour(b->pen().color()))
                       .arg(b->pen().widthF());
        } else if (const auto *t = dynamic_cast<const QGraphicsSimpleTextItem *>(item)) {
            const QPointF at = t->scenePos();
            const QFontMetricsF m(t->font());
            svg += QStringLiteral(
                "<text x=\"%1\" y=\"%2\" font-family=\"%3\" font-size=\"%4px\" fill=\"%5\">%6</text>\n")
                       .arg(at.x())
                       .arg(at.y() + m.ascent())
                       .arg(t->font().family().toHtmlEscaped())
                       .arg(
                           t->font().pixelSize() > 0 ? t->font().pixelSize() : t->font().pointSizeF() * 4 / 3)
                       .arg(svgColour(t->brush().color()), t->text().toHtmlEscaped());
        }
    }
    return (svg + QStringLiteral("</svg>\n")).toUtf8();
}

} // namespace

bool LineagePanel::exportTo(const QString &path) const
{
    const QRectF source = m_scene->sceneRect();
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QFile out(path);
        return out.open(QIODevice::WriteOnly | QIODevice::Truncate)
            && out.write(sceneSvg(*m_scene, palette().color(QPalette::Base))) > 0;
    }
    if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
        QPdfWriter pdf(path);
        pdf.setPageSize(QPageSize(source.size() * 0.75, QPageSize::Point));
        pdf.setPageMargins(QMarginsF());
        QPainter p;
        if (!p.begin(&pdf))
            return false;
        m_scene->render(&p);
        return p.end();
    }
    QImage image((source.size() * 2).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(palette().color(QPalette::Base));
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        m_scene->render(&p);
    }
    return image.save(path);
}

} // namespace plumb
