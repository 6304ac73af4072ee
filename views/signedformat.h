// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace plumb {

// Changes for display, always with their sign: +1.23 ms, −450 µs (a true minus sign), ±0 ns.

// A duration change in ns, in the unit formatDuration() picks for its size.
[[nodiscard]] QString signedDuration(double ns);
// A relative change (0.123 -> "+12.3%").
[[nodiscard]] QString signedPercent(double fraction);

} // namespace plumb
