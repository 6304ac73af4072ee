// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "timeline/timelinedata.h"

#include <QList>
#include <QSet>
#include <QString>

#include <vector>

namespace plumb {

// Maps the timeline's tracks (timelineTracks() order) to rows stacked top to bottom: a header per
// rank (only when the tracks come from more than one trace), a header per process under it, then
// the process's tracks. A slice track is one lane of kLaneHeightPx per depth; a counter track has a
// fixed height. Collapsing a header hides everything under it (the header itself stays).
//
// Row y positions are content coordinates: 0 is the top of the first row, before vertical scrolling.
class TimelineLayout {
public:
    static constexpr double kLaneHeightPx = 18.0;
    static constexpr double kTrackPaddingPx = 3.0; // above and below a track's lanes
    static constexpr double kCounterHeightPx = 42.0;
    static constexpr double kHeaderHeightPx = 22.0;
    static constexpr int kMaxLanes = 24; // deeper stacks draw their deepest lanes clipped

    struct Row {
        enum class Kind { RankHeader, ProcessHeader, Track };
        Kind kind = Kind::Track;
        QString label;
        QString groupKey; // headers: the key collapse() takes
        int trackIndex = -1; // tracks: index into tracks()
        int indent = 0; // nesting level for the label (0 rank, 1 process, 2 track, 3 companion)
        double y = 0;
        double height = 0;
        bool collapsed = false; // headers only
        [[nodiscard]] bool isHeader() const { return kind != Kind::Track; }
    };

    TimelineLayout() = default;
    explicit TimelineLayout(QList<TimelineTrack> tracks);

    [[nodiscard]] const QList<TimelineTrack> &tracks() const { return m_tracks; }
    [[nodiscard]] const std::vector<Row> &rows() const { return m_rows; }
    [[nodiscard]] double contentHeight() const { return m_contentHeight; }

    [[nodiscard]] bool isCollapsed(const QString &groupKey) const { return m_collapsed.contains(groupKey); }
    void setCollapsed(const QString &groupKey, bool collapsed);
    void toggleCollapsed(const QString &groupKey) { setCollapsed(groupKey, !isCollapsed(groupKey)); }

    // The row at content y, or -1.
    [[nodiscard]] int rowAt(double y) const;
    // The row showing track index `trackIndex`, or -1 when it is hidden by a collapsed header.
    [[nodiscard]] int rowOfTrack(int trackIndex) const;
    // The track index for a track id, or -1.
    [[nodiscard]] int trackIndexOf(int64_t trackId) const;
    // Expands the headers above a track so that it has a row.
    void reveal(int trackIndex);
    // Lanes drawn for a track (its depths, capped at kMaxLanes) and the y of a depth inside the row.
    [[nodiscard]] static int lanesOf(const TimelineTrack &t);
    [[nodiscard]] static bool isCounter(const TimelineTrack &t) { return t.kind == QLatin1String("counter"); }

private:
    void relayout();
    [[nodiscard]] QString rankKey(const TimelineTrack &t) const;
    [[nodiscard]] QString processKey(const TimelineTrack &t) const;

    QList<TimelineTrack> m_tracks;
    std::vector<Row> m_rows;
    std::vector<int> m_rowOfTrack; // by track index, -1 when hidden
    QSet<QString> m_collapsed;
    double m_contentHeight = 0;
    bool m_multiTrace = false;
};

} // namespace plumb
