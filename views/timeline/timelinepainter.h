// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QPainter;

namespace plumb {

class TimelineDrawList;

// Paints a built draw list into any QPainter (a widget, a QImage, a PDF page) in the draw list's
// widget coordinates: rows and the label gutter, slices with their labels, folded boxes hatched,
// instants, counters, idle gaps, the ruler with its grid, step markers, and the overlays (selected
// range, selected slice, flow arrows, a box select in progress). Reads nothing but the list.
void paintTimeline(QPainter &painter, const TimelineDrawList &list);

} // namespace plumb
