// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importrunner.h"

#include <QHash>
#include <QList>

#include <cstdint>
#include <vector>

namespace plumb {

class SqliteDb;

// What one import brought into the workspace, by kind: the input of chooseView(). Read from the
// workspace after the import, from the sources the import reported (new ones first, then those
// already present) and, for metrics, which carry no source id, by comparing each run's
// scalar point count with the count before the import (WorkspaceSnapshot::metricPoints).
struct ImportContent {
    struct Trace {
        int64_t id = 0;
        int64_t runId = 0;
        friend bool operator==(const Trace &, const Trace &) = default;
    };
    QList<Trace> traces; // of the new sources, then of those already present, each in import order
    QList<int64_t> metricRuns; // runs whose scalar points grew (new runs included), by id
    QList<int64_t> lineageNodes; // nodes first written by the import's sources, the one to focus first
                                 // (the newest model-like artifact, as LineageReader::defaultFocus())
    QList<int64_t> servingRuns; // runs that got serving requests (benchmark results, request logs)
    int64_t servingRequests = 0;
    QList<int64_t> lifecycleRuns; // runs that got job lifecycle events
    int64_t lifecycleEvents = 0;

    [[nodiscard]] bool isEmpty() const
    {
        return traces.isEmpty() && metricRuns.isEmpty() && lineageNodes.isEmpty() && servingRequests == 0
            && lifecycleEvents == 0;
    }

    // Reads what the imported or already-present sources of `results` hold; `metricPointsBefore` as
    // metricPoints() returned before the import (empty: every run with metrics counts as grown).
    [[nodiscard]] static ImportContent read(SqliteDb &db, const std::vector<FileImportResult> &results,
        const QHash<int64_t, int64_t> &metricPointsBefore);
    // Run id -> scalar points over all its series, for the runs that have any.
    [[nodiscard]] static QHash<int64_t, int64_t> metricPoints(SqliteDb &db);
};

} // namespace plumb
