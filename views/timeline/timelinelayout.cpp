// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timelinelayout.h"

#include <algorithm>

namespace plumb {

TimelineLayout::TimelineLayout(QList<TimelineTrack> tracks)
    : m_tracks(std::move(tracks))
{
    for (const TimelineTrack &t : m_tracks) {
        if (t.traceId != m_tracks.front().traceId) {
            m_multiTrace = true;
            break;
        }
    }
    relayout();
}

void TimelineLayout::setCollapsed(const QString &groupKey, bool collapsed)
{
    if (collapsed == m_collapsed.contains(groupKey))
        return;
    if (collapsed)
        m_collapsed.insert(groupKey);
    else
        m_collapsed.remove(groupKey);
    relayout();
}

int TimelineLayout::lanesOf(const TimelineTrack &t)
{
    return std::clamp(t.maxDepth + 1, 1, kMaxLanes);
}

QString TimelineLayout::rankKey(const TimelineTrack &t) const
{
    return QStringLiteral("t%1").arg(t.traceId);
}

QString TimelineLayout::processKey(const TimelineTrack &t) const
{
    return QStringLiteral("t%1/p%2").arg(t.traceId).arg(t.processId);
}

void TimelineLayout::relayout()
{
    m_rows.clear();
    m_rowOfTrack.assign(size_t(m_tracks.size()), -1);
    double y = 0;
    auto add = [&](Row r) {
        r.y = y;
        y += r.height;
        m_rows.push_back(std::move(r));
    };
    int64_t lastTrace = -1, lastProcess = -1;
    bool rankHidden = false, processHidden = false;
    for (int i = 0; i < m_tracks.size(); ++i) {
        const TimelineTrack &t = m_tracks.at(i);
        if (m_multiTrace && t.traceId != lastTrace) {
            Row h;
            h.kind = Row::Kind::RankHeader;
            h.groupKey = rankKey(t);
            h.label = t.rank >= 0 ? QStringLiteral("Rank %1 · %2").arg(t.rank).arg(t.traceName) : t.traceName;
            h.height = kHeaderHeightPx;
            h.collapsed = m_collapsed.contains(h.groupKey);
            rankHidden = h.collapsed;
            add(std::move(h));
            lastProcess = -1;
        }
        if (t.traceId != lastTrace || t.processId != lastProcess) {
            lastTrace = t.traceId;
            lastProcess = t.processId;
            if (!rankHidden) {
                Row h;
                h.kind = Row::Kind::ProcessHeader;
                h.groupKey = processKey(t);
                h.label = t.processName;
                h.indent = m_multiTrace ? 1 : 0;
                h.height = kHeaderHeightPx;
                h.collapsed = m_collapsed.contains(h.groupKey);
                processHidden = h.collapsed;
                add(std::move(h));
            }
        }
        if (rankHidden || processHidden)
            continue;
        Row r;
        r.kind = Row::Kind::Track;
        r.trackIndex = i;
        r.label = t.name;
        r.indent = (m_multiTrace ? 2 : 1) + (t.parentTrackId != 0 ? 1 : 0);
        r.height = isCounter(t) ? kCounterHeightPx : lanesOf(t) * kLaneHeightPx + 2 * kTrackPaddingPx;
        m_rowOfTrack[size_t(i)] = int(m_rows.size());
        add(std::move(r));
    }
    m_contentHeight = y;
}

int TimelineLayout::rowAt(double y) const
{
    if (m_rows.empty() || y < 0 || y >= m_contentHeight)
        return -1;
    auto it
        = std::upper_bound(m_rows.begin(), m_rows.end(), y, [](double v, const Row &r) { return v < r.y; });
    return int(it - m_rows.begin()) - 1;
}

int TimelineLayout::rowOfTrack(int trackIndex) const
{
    if (trackIndex < 0 || size_t(trackIndex) >= m_rowOfTrack.size())
        return -1;
    return m_rowOfTrack[size_t(trackIndex)];
}

int TimelineLayout::trackIndexOf(int64_t trackId) const
{
    for (int i = 0; i < m_tracks.size(); ++i)
        if (m_tracks.at(i).id == trackId)
            return i;
    return -1;
}

void TimelineLayout::reveal(int trackIndex)
{
    if (trackIndex < 0 || trackIndex >= m_tracks.size())
        return;
    const TimelineTrack &t = m_tracks.at(trackIndex);
    const bool changed = m_collapsed.remove(rankKey(t)) | m_collapsed.remove(processKey(t));
    if (changed)
        relayout();
}

} // namespace plumb
