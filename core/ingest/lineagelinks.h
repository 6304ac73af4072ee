// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace plumb {

class SqliteDb;

// Joins lineage nodes to the workspace's runs when they name each other, replacing the links made
// this way before (links the user made, origin 'user', stay):
//   'mlflow-run-id'  an MLflow run's id (32 hex digits) appears in the node's properties or uri;
//   'uri'            the node's uri (file:// stripped) is the run's folder, inside it, or holds it
//                    (a TensorBoard logdir or model directory recorded as an artifact);
//   'name'           the node's name is the run's name (names of four characters or more);
//   'job-name'       an OpenLineage job's name without its namespace is the run's name.
// Returns the links made. Called by the ImportRunner after a batch that changed runs or lineage.
int64_t linkLineageToRuns(SqliteDb &db);

// Links node `nodeId` to run `runId` by the user's hand (origin 'user', which linkLineageToRuns()
// keeps), replacing an automatic link between the two. False, writing nothing, when the workspace
// has no such node or no such run.
bool linkNodeToRun(SqliteDb &db, int64_t nodeId, int64_t runId);

} // namespace plumb
