// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <memory>

namespace plumb {

class SqliteDb;
class SqliteStmt;

// One node of the lineage graph as an importer describes it (see the lineage_node table). Empty
// strings and zero times mean "not said here": a node met again keeps what it had.
struct LineageNode {
    enum class Kind { Artifact, Execution, Context };
    Kind kind = Kind::Artifact;
    QString key; // identity across imports, unique in the workspace
    QString name;
    QString type;
    QString uri;
    QString state;
    int64_t startNs = 0; // epoch ns
    int64_t endNs = 0;
    QByteArray properties; // a JSON object, merged into what the node had (top-level members replaced)
};

[[nodiscard]] QString lineageKindName(LineageNode::Kind k);

// The write side of one lineage import (ML Metadata stores, OpenLineage events), in the import's
// transaction: nodes found or created by key (a later import that names a node again, such as an
// OpenLineage run's COMPLETE after its START, updates it), and edges between them.
class LineageSink {
public:
    LineageSink(SqliteDb &db, int64_t sourceId);
    ~LineageSink();
    LineageSink(const LineageSink &) = delete;
    LineageSink &operator=(const LineageSink &) = delete;

    // The node's id, created or updated: name, type, uri and state replaced when given (except that a
    // finished state, COMPLETE, FAIL, ABORT, FAILED, CANCELED or CACHED, is never replaced by NEW,
    // START or RUNNING: events of one run may arrive, or be imported, out of order); the time span
    // widened to include the given times; properties merged.
    int64_t node(const LineageNode &n);
    // An edge (from, to, kind: 'input' | 'output' | 'contains' | 'parent'); met again, its
    // properties are merged.
    void edge(int64_t from, int64_t to, const QString &kind, const QByteArray &properties = {});

    [[nodiscard]] int64_t nodesWritten() const { return m_nodes; }
    [[nodiscard]] int64_t edgesWritten() const { return m_edges; }

private:
    int64_t m_sourceId;
    std::unique_ptr<SqliteStmt> m_upsertNode;
    std::unique_ptr<SqliteStmt> m_nodeId;
    std::unique_ptr<SqliteStmt> m_upsertEdge;
    int64_t m_nodes = 0;
    int64_t m_edges = 0;
};

} // namespace plumb
