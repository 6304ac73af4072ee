// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/workspacereader.h"

#include <QHash>
#include <QList>
#include <QString>

#include <cstdint>

namespace plumb {

// Everything the main window shows about one workspace, read in one go on a worker thread (by
// WorkspaceSession), plus the per-run metric counts that tell what the next import added.
//
// load() opens its own Reader connection (SQLite connections never cross threads), so it can run
// while an import writes to the same file: it sees the last committed state. It never throws; a
// workspace that cannot be opened comes back with `error` set and nothing else filled.
struct WorkspaceSnapshot {
    enum class Mode {
        OpenExisting, // the file must exist and be a Plumb workspace (older schemas are migrated)
        CreateIfMissing // as OpenExisting, but a missing file becomes a new, empty workspace
    };

    QString path;
    QString error; // non-empty when the workspace could not be opened or read
    // Why this process may not write it (Workspace::readOnlyReason()): shown, and nothing is imported.
    QString readOnlyReason;
    WorkspaceSummary summary;
    QList<SourceInfo> sources;
    QList<RunInfo> runs;
    QList<DiagnosticRow> diagnostics;
    QHash<int64_t, int64_t> metricPoints; // run id -> scalar points over its series (runs with any)

    [[nodiscard]] bool ok() const { return error.isEmpty(); }
    [[nodiscard]] bool readOnly() const { return !readOnlyReason.isEmpty(); }
    [[nodiscard]] static WorkspaceSnapshot load(const QString &path, Mode mode);
};

} // namespace plumb
