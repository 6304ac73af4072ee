// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracedetailswidget.h"

#include "store/experimentreader.h"
#include "store/workspacereader.h"
#include "text/textformat.h"

#include <QDir>
#include <QFileInfo>
#include <QMimeData>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

namespace plumb {

namespace {

constexpr QChar kBreak(0x200B); // zero-width space: a line may break here

// A file, run or device name that may wrap after its separators ("cloverleaf_nsys2024.5.sqlite" as
// "cloverleaf_nsys2024.5." / "sqlite" in a narrow pane) rather than before its last letter.
QString breakable(const QString &s)
{
    QString out;
    out.reserve(s.size() + s.size() / 4);
    for (const QChar c : s) {
        out += c;
        if (c == u'_' || c == u'.' || c == u'/' || c == u'\\' || c == u'-' || c == u':')
            out += kBreak;
    }
    return out;
}

// What is copied from the pane is the text without those break points.
class DetailsBrowser final : public QTextBrowser {
public:
    using QTextBrowser::QTextBrowser;

protected:
    QMimeData *createMimeDataFromSelection() const override
    {
        auto *data = new QMimeData;
        data->setText(textCursor().selection().toPlainText().remove(kBreak));
        return data;
    }
};

} // namespace

TraceDetailsWidget::TraceDetailsWidget(QWidget *parent)
    : QWidget(parent)
    , m_view(new DetailsBrowser(this))
{
    m_view->setAccessibleName(tr("Trace details"));
    m_view->setFrameShape(QFrame::NoFrame);
    m_view->setOpenLinks(false);
    m_view->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_view->viewport()->setAutoFillBackground(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    clear();
}

void TraceDetailsWidget::showTrace(const TraceInfo &t, const RunInfo &run, const SourceInfo *source)
{
    const int64_t durNs = t.endNs > t.startNs ? t.endNs - t.startNs : 0;
    QString rank = t.rank < 0 ? tr("not recorded") : QString::number(t.rank);
    if (t.rank >= 0 && t.worldSize > 0)
        rank = tr("%1 of %2").arg(t.rank).arg(t.worldSize);
    setContent(breakable(t.name),
        {
            { tr("Run"), breakable(run.name) },
            { tr("Source file"), source ? breakable(source->name) : QString() },
            { tr("Folder"),
                source ? breakable(QDir::toNativeSeparators(QFileInfo(source->path).absolutePath()))
                       : QString() },
            { tr("Format"), t.format },
            { tr("Rank"), rank },
            { tr("Devices"), t.devices.isEmpty() ? tr("none recorded") : breakable(t.devices) },
            { tr("Duration"), tr("%1 ms").arg(text::milliseconds(durNs)) },
            { tr("Events"), text::count(t.events) },
            { tr("Slices"), text::count(t.slices) },
            { tr("GPU kernels"), text::count(t.kernels) },
            { tr("GPU ops"), text::count(t.gpuOps) },
            { tr("Flows"), text::count(t.flows) },
            { tr("Counters"), text::count(t.counters) },
            { tr("Tracks"), text::count(t.tracks) },
            { tr("Diagnostics"), source ? text::count(source->diagnostics) : QString() },
        });
}

void TraceDetailsWidget::showRun(const RunInfo &run)
{
    int64_t events = 0, slices = 0, kernels = 0;
    for (const TraceInfo &t : run.traces) {
        events += t.events;
        slices += t.slices;
        kernels += t.kernels;
    }
    setContent(tr("Run %1").arg(breakable(run.name)),
        {
            { tr("Traces"), text::count(run.traces.size()) },
            { tr("Events"), text::count(events) },
            { tr("Slices"), text::count(slices) },
            { tr("GPU kernels"), text::count(kernels) },
        });
}

void TraceDetailsWidget::showExperimentRun(
    const ExperimentRunInfo &run, const QList<QPair<QString, QString>> &params)
{
    QList<QPair<QString, QString>> rows {
        { tr("Folder"), breakable(QDir::toNativeSeparators(run.path)) },
    };
    if (!run.status.isEmpty())
        rows.append({ tr("Status"), run.status });
    if (!run.groupName.isEmpty())
        rows.append({ tr("Group"), breakable(run.groupName) });
    if (run.startNs > 0)
        rows.append({ tr("Started"), text::dateTime(run.startNs) });
    if (run.endNs > run.startNs && run.startNs > 0)
        rows.append({ tr("Ended"), text::dateTime(run.endNs) });
    rows.append({ tr("Scalars"),
        tr("%1, %2").arg(text::counted(run.scalarTags, tr("tag"), tr("tags")),
            text::counted(run.scalarPoints, tr("point"), tr("points"))) });
    if (run.histogramTags > 0)
        rows.append({ tr("Histograms"), text::counted(run.histogramTags, tr("tag"), tr("tags")) });
    if (run.restarts > 0)
        rows.append({ tr("Restarts"), text::count(run.restarts) });
    for (const auto &[key, value] : params)
        if (!value.isEmpty())
            rows.append({ breakable(key), breakable(value) });
    setContent(tr("Run %1").arg(breakable(run.name)), rows);
}

void TraceDetailsWidget::clear()
{
    setContent(tr("Details"), {});
}

QString TraceDetailsWidget::plainText() const
{
    return m_view->toPlainText().remove(kBreak);
}

void TraceDetailsWidget::setContent(const QString &title, const QList<QPair<QString, QString>> &rows)
{
    QString html = QStringLiteral("<h3>%1</h3>").arg(title.toHtmlEscaped());
    if (rows.isEmpty()) {
        html += tr("<p>Select a trace in the workspace browser to see its numbers.</p>"
                   "<p>Drop PyTorch profiler traces, or folders of them, anywhere on this window to import "
                   "them.</p>");
    } else {
        html += QStringLiteral("<table cellspacing='0' cellpadding='2'>");
        for (const auto &[name, value] : rows)
            html += QStringLiteral("<tr><td style='padding-right:12px'>%1</td><td>%2</td></tr>")
                        .arg(name.toHtmlEscaped(), value.toHtmlEscaped());
        html += QStringLiteral("</table>");
    }
    m_view->setHtml(html);
}

} // namespace plumb
