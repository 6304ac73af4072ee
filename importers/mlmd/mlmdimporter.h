// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

namespace plumb {

// ML Metadata stores: the SQLite database TFX and Kubeflow Pipelines keep their lineage in
// (metadata.sqlite, mlmd.db), read into the workspace's lineage graph.
//
// The store is opened read-only and immutable and never changed. Its schema is discovered, not
// assumed: MLMDEnv.schema_version says which ML Metadata wrote it, and every optional column is
// checked for (PRAGMA table_info), so a store of schema version 2 to 10 imports with what it has
// (version 9 added external ids, version 10 proto and bool property values; version 5 artifact
// and execution names, states and times; version 6 parent contexts). A newer version is read by
// column names, with an Info diagnostic. A SQLite file without the tables MLMD cannot do without
// (MLMDEnv, Type with type_kind, Artifact, Execution, Event) is refused with an ImportError that
// names each missing table and column; nothing is imported.
//
// Mapping (keys "mlmd:<absolute store path>#artifact/<id>", "#execution/<id>", "#context/<id>"):
//  - Artifact -> artifact node: type name, uri, state name (LIVE, DELETED...), name (or
//    "<type> <id>" when unnamed), create and last-update times as the span (ms -> ns).
//  - Execution -> execution node: type name, last_known_state name (COMPLETE, FAILED...).
//  - Context -> context node: type name (pipeline, pipeline_run, node...).
//  - Properties of each: a JSON object {"mlmd_id", "external_id", "properties": {...},
//    "custom_properties": {...}}; int, double, string and bool values as JSON values (a double
//    that is not finite as the string "NaN", "Infinity" or "-Infinity"), byte values as
//    {"bytes_base64": ...}, proto values (a serialized google.protobuf.Any) as
//    {"proto_type": type_url, "proto_base64": ...}, struct values (MLMD's "mlmd-struct::" string,
//    a serialized google.protobuf.Struct, as Kubeflow Pipelines v2 writes artifact metadata) as the
//    JSON object they hold ({"struct_base64": ...} when it does not decode).
//  - Event -> 'input' edge artifact -> execution (INPUT, DECLARED_INPUT, INTERNAL_INPUT) or
//    'output' edge execution -> artifact (OUTPUT, DECLARED_OUTPUT, INTERNAL_OUTPUT,
//    PENDING_OUTPUT), with {"event_type", "path": [key or index steps], "time_ns"}. An artifact
//    that two events tie to one execution the same way (DECLARED_OUTPUT then OUTPUT) is one
//    edge, with the later event's properties. UNKNOWN events and events naming rows that do not
//    exist are skipped and counted.
//  - Attribution -> 'contains' context -> artifact; Association -> 'contains' context ->
//    execution; ParentContext -> 'parent' parent context -> child context.
class MlmdImporter final : public Importer {
public:
    [[nodiscard]] QString id() const override { return QStringLiteral("mlmd"); }
    [[nodiscard]] QString displayName() const override { return QStringLiteral("ML Metadata store"); }
    [[nodiscard]] int version() const override { return 1; }
    [[nodiscard]] int sniff(QByteArrayView head, const QString &fileName) const override;
    void read(ImportContext &ctx) const override;
    // A store its service has open in WAL mode: the log is read with it (see ForeignSqliteDb).
    [[nodiscard]] QStringList companionFiles(const QString &path) const override;
    [[nodiscard]] QString companionOwner(const QString &path) const override;
};

} // namespace plumb
