// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "timeline/timelinequery.h"

#include <QTextBrowser>

#include <vector>

namespace plumb {

// The details of the selected slice: name, category, track, start (from the ruler's origin),
// duration, args as pretty-printed JSON, and the linked launch/kernel/flow ends as links; clicking
// one emits linkActivated() with the linked slice.
class SliceDetailsWidget final : public QTextBrowser {
    Q_OBJECT
public:
    explicit SliceDetailsWidget(QWidget *parent = nullptr);

    void showSlice(const SliceInfo &slice, const QString &trackLabel, int64_t originNs);
    void setLinks(const std::vector<SliceLink> &links, const QList<TimelineTrack> &tracks);
    void showMessage(const QString &text);
    void clearSlice();
    [[nodiscard]] const std::vector<SliceLink> &links() const { return m_links; }

Q_SIGNALS:
    void linkActivated(const SliceInfo &slice);

private:
    void render();

    std::optional<SliceInfo> m_slice;
    QString m_trackLabel;
    int64_t m_originNs = 0;
    std::vector<SliceLink> m_links;
    QStringList m_linkTracks; // by link: the linked slice's track label
};

} // namespace plumb
