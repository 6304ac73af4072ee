// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "job/jobview.h"

#include <QJsonObject>
#include <QString>

namespace plumb {

// A job (job/jobview.h) as `plumb merge` and `plumb doctor --job` print it: the verdict, the straggler,
// then the ranks: the `shown` most telling (a verdict unlike most ranks', the others' waiting caused,
// step time) and every missing one, by rank.
[[nodiscard]] QString jobText(const JobView &v, int shown = 16);
[[nodiscard]] QJsonObject jobJson(const JobView &v);

} // namespace plumb
