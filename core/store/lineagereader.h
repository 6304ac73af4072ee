// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <vector>

namespace plumb {

class SqliteStmt;
class Workspace;

// A lineage node as stored (see lineage_node), with the contexts that contain it and the runs it is
// linked to.
struct LineageNodeInfo {
    int64_t id = 0;
    QString kind; // 'artifact' | 'execution' | 'context'
    QString type;
    QString key;
    QString name;
    QString uri;
    QString state;
    int64_t startNs = 0;
    int64_t endNs = 0;
    QString properties; // JSON object
    QStringList contexts; // names of the contexts that contain it (pipeline, pipeline run, job...)
    QString job; // of an execution: the job (OpenLineage) or pipeline node (ML Metadata) it is a run of
    QList<int64_t> runIds; // linked workspace runs
    // A node standing for several (collapseRepeatedRuns): every member's id, this one's first, and
    // how many of them failed.
    QList<int64_t> members;
    int failedMembers = 0;
};

struct LineageEdgeInfo {
    int64_t from = 0;
    int64_t to = 0;
    QString kind; // 'input' | 'output' | 'contains' | 'parent'
    QString properties;
};

enum class LineageDirection { Up, Down, Both };

// A node's neighbourhood along the data flow (input and output edges): nodes in the order they were
// reached (the focus first), each with its distance, and the edges between them. A cycle is walked
// once (every node is visited once); `truncated` when maxNodes stopped the walk.
struct LineageGraph {
    std::vector<LineageNodeInfo> nodes;
    std::vector<int> depth; // of each node: edges from the focus
    std::vector<int64_t> reachedFrom; // of each node: the node it was reached from (0 for the focus)
    std::vector<bool> upstream; // of each node: reached against the data flow (an input of reachedFrom)
    std::vector<LineageEdgeInfo> edges;
    bool truncated = false;
};

// True for a state that means the run did not succeed (FAILED, FAIL, ABORTED, CANCELED...).
[[nodiscard]] bool isFailedState(const QString &state);

// The neighbourhood with repeated runs folded, so that a job that ran thousands of times stays
// readable: the executions that are runs of one job (same job context, see LineageNodeInfo::job)
// become one node, and so do the artifacts of one type those runs made (each run's model, its
// statistics...) and the artifacts of one type they read that nothing in the graph made. The focus
// stays on its own. A folded node keeps its first member's id and fields, its name says how many it
// stands for (`train_mlp × 12 runs`), members lists them and failedMembers counts the failed ones;
// edges are redirected and deduplicated. Nodes with nothing to fold with are unchanged.
[[nodiscard]] LineageGraph collapseRepeatedRuns(const LineageGraph &g);

// Read-only queries over the lineage tables, shared by `plumb lineage` and the Lineage view.
class LineageReader {
public:
    explicit LineageReader(Workspace &workspace);
    ~LineageReader();

    struct Counts {
        int64_t artifacts = 0, executions = 0, contexts = 0, edges = 0, links = 0;
        // "7 artifacts, 5 executions, 4 contexts, 17 edges, 1 link to a run"
        [[nodiscard]] QString summary() const;
    };
    [[nodiscard]] Counts counts();
    // Nodes matching `what`: its id, else its key, else its exact name, else names containing it
    // (case-insensitive); by id.
    [[nodiscard]] std::vector<LineageNodeInfo> find(const QString &what);
    [[nodiscard]] LineageNodeInfo node(int64_t id);
    // The node a view opens on: the newest model-like artifact (by type, name or uri), else the newest
    // node that is no context, else any; 0 when there is no lineage.
    [[nodiscard]] int64_t defaultFocus();
    // Upstream (what it was made from), downstream (what was made from it) or both, up to `depth`
    // edges away.
    [[nodiscard]] LineageGraph neighbourhood(
        int64_t id, LineageDirection direction, int depth, int maxNodes = 5000);

private:
    Workspace &m_ws;
    // node()'s statements, prepared once: a neighbourhood reads thousands of nodes.
    std::unique_ptr<SqliteStmt> m_node, m_contexts, m_runs;
};

} // namespace plumb
