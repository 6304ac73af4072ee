// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/goodput.h"

#include <QJsonObject>
#include <QString>

namespace plumb {

class Workspace;

// `plumb goodput`: goodput and the badput breakdown of a job (analysis/goodput.h), as text and as
// plumb.goodput/1 JSON (docs/json.md).
struct GoodputLookup {
    GoodputReport report;
    QString error; // no such run, several, no run goodput can be computed for, or why it cannot be
};

// The report of the run `run` names among goodputRuns() (an id or a name, selectRuns()); with `run`
// empty, the first of them (the newest run with a lifecycle log, else the newest with step timings).
[[nodiscard]] GoodputLookup readGoodput(
    Workspace &workspace, const QString &run, const GoodputOptions &options);

[[nodiscard]] QJsonObject goodputJson(const GoodputReport &r);
// The span, the goodput figures, then where the time went (productive training and each badput
// bucket with time, one line each) and the advice.
[[nodiscard]] QString goodputText(const GoodputReport &r);

} // namespace plumb
