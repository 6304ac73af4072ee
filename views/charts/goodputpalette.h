// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QBrush>
#include <QColor>
#include <QString>

#include <cstdint>

namespace plumb {

// The colours of the Goodput tab: productive training (category -1) in green, each Badput bucket
// (core/analysis/goodput.h) in its own hue, scheduling badput (provisioning, disruption recovery) in
// patterns as well, so the charts read in greyscale prints too.
[[nodiscard]] QColor goodputColor(int category);
[[nodiscard]] QBrush goodputBrush(int category);
// "Productive training" or the bucket's title.
[[nodiscard]] QString goodputCategoryTitle(int category);

} // namespace plumb

namespace plumb {

// The unit the Goodput charts' time axes use for a job of `elapsedNs`: seconds, minutes or hours.
struct GoodputTimeUnit {
    double nsPerUnit = 1e9;
    QString name; // "s", "min", "h"
};
[[nodiscard]] GoodputTimeUnit goodputTimeUnit(int64_t elapsedNs);

} // namespace plumb
