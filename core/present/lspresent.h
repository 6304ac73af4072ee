// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/experimentreader.h"
#include "store/lineagereader.h"
#include "store/workspacereader.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <cstdint>
#include <map>

namespace plumb {

class Workspace;

// What `plumb ls` shows of a workspace: its runs with their traces and experiment logs, its sources,
// the lineage graph's size and (when asked for) the diagnostics of the imports.
struct LsListing {
    WorkspaceSummary summary;
    QList<RunInfo> runs;
    QList<SourceInfo> sources;
    std::map<int64_t, ExperimentRunInfo> logs; // experiment-log contents by run id
    LineageReader::Counts lineage;
    bool withDiagnostics = false; // whether `diagnostics` was read (and is shown)
    QList<DiagnosticRow> diagnostics;

    [[nodiscard]] bool hasLineage() const
    {
        return lineage.artifacts + lineage.executions + lineage.contexts > 0;
    }
};

// Reads the listing; throws SqlError when the workspace cannot be read.
[[nodiscard]] LsListing lsListing(Workspace &ws, bool withDiagnostics);

// The listing as the `plumb.ls/1` JSON object (docs/json.md).
[[nodiscard]] QJsonObject lsJson(const LsListing &l);
// The listing as `plumb ls` prints it: a header, the runs and their traces and logs, the sources.
[[nodiscard]] QString lsText(const LsListing &l);

} // namespace plumb
