// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/slicedetailswidget.h"

#include "timeline/timescale.h"

#include <QJsonDocument>
#include <QLocale>
#include <QUrl>

namespace plumb {

namespace {

QString prettyJson(const QString &compact)
{
    if (compact.isEmpty())
        return {};
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(compact.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        return compact;
    return QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed();
}

} // namespace

SliceDetailsWidget::SliceDetailsWidget(QWidget *parent)
    : QTextBrowser(parent)
{
    setAccessibleName(tr("Slice details"));
    setOpenLinks(false);
    setOpenExternalLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        bool ok = false;
        const int i = url.path().toInt(&ok);
        if (url.scheme() == QLatin1String("link") && ok && i >= 0 && size_t(i) < m_links.size())
            Q_EMIT linkActivated(m_links[size_t(i)].slice);
    });
    showMessage(
        tr("Click a slice to see its details; Shift+drag (or drag on the ruler) to sum up a time range."));
}

void SliceDetailsWidget::showMessage(const QString &text)
{
    m_slice.reset();
    m_links.clear();
    setHtml(QStringLiteral("<p style='color: gray'>%1</p>").arg(text.toHtmlEscaped()));
}

void SliceDetailsWidget::clearSlice()
{
    showMessage(tr("No slice selected."));
}

void SliceDetailsWidget::showSlice(const SliceInfo &slice, const QString &trackLabel, int64_t originNs)
{
    m_slice = slice;
    m_trackLabel = trackLabel;
    m_originNs = originNs;
    m_links.clear();
    m_linkTracks.clear();
    render();
}

void SliceDetailsWidget::setLinks(const std::vector<SliceLink> &links, const QList<TimelineTrack> &tracks)
{
    m_links = links;
    m_linkTracks.clear();
    for (const SliceLink &l : links) {
        QString label;
        for (const TimelineTrack &t : tracks)
            if (t.id == l.slice.key.trackId)
                label = t.processName + QStringLiteral(" · ") + t.name;
        m_linkTracks << label;
    }
    render();
}

void SliceDetailsWidget::render()
{
    if (!m_slice)
        return;
    const SliceInfo &s = *m_slice;
    auto row = [](const QString &key, const QString &value) {
        return QStringLiteral("<tr><td style='padding-right:12px; color:gray'>%1</td><td>%2</td></tr>")
            .arg(key.toHtmlEscaped(), value);
    };
    QString html
        = QStringLiteral("<h3 style='margin:0'>%1</h3><table cellspacing='2'>").arg(s.name.toHtmlEscaped());
    if (!s.category.isEmpty())
        html += row(tr("Category"), s.category.toHtmlEscaped());
    html += row(tr("Track"), m_trackLabel.toHtmlEscaped());
    html += row(tr("Start"), formatTimeOffset(s.startNs - m_originNs, 1).toHtmlEscaped());
    html += row(tr("Duration"),
        QStringLiteral("%1 <span style='color:gray'>(%2 ns)</span>")
            .arg(formatDuration(s.durNs).toHtmlEscaped(), QLocale().toString(qlonglong(s.durNs))));
    html += row(tr("Depth"), QString::number(s.depth));
    if (s.corr >= 0)
        html += row(tr("Correlation"), QString::number(s.corr));
    for (size_t i = 0; i < m_links.size(); ++i) {
        const SliceLink &l = m_links[i];
        html += row(l.relation,
            QStringLiteral("<a href='link:%1'>%2</a> <span style='color:gray'>%3 · %4</span>")
                .arg(i)
                .arg(l.slice.name.toHtmlEscaped(), formatDuration(l.slice.durNs).toHtmlEscaped(),
                    m_linkTracks.value(int(i)).toHtmlEscaped()));
    }
    html += QStringLiteral("</table>");
    const QString args = prettyJson(s.argsJson);
    if (!args.isEmpty())
        html += QStringLiteral(
            "<p style='margin-bottom:0; color:gray'>%1</p><pre style='margin-top:2px'>%2</pre>")
                    .arg(tr("Args").toHtmlEscaped(), args.toHtmlEscaped());
    setHtml(html);
}

} // namespace plumb
