// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/configdiff.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace plumb {

class Workspace;

// `plumb diff --config`: experiment runs side by side (analysis/configdiff.h), as text and as
// plumb.config-diff/1 JSON (docs/json.md).
struct ConfigDiffPresentation {
    ConfigDiff diff;
    bool allRows = false; // --all: rows and metrics that do not differ too
};

struct ConfigDiffLookup {
    ConfigDiffPresentation presentation;
    QString error; // a run that could not be found (unknown or ambiguous); empty on success
};

// The runs named on the command line (ids or names, resolveRuns()) diffed, the first the baseline.
[[nodiscard]] ConfigDiffLookup readConfigDiff(Workspace &workspace, const QStringList &runs, bool allRows);

[[nodiscard]] QJsonObject configDiffJson(const ConfigDiffPresentation &p);
// A column per run, as wide as its widest cell (up to 40 characters); differing rows marked `*`.
[[nodiscard]] QString configDiffText(const ConfigDiffPresentation &p);

} // namespace plumb
