#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the ML Metadata fixtures of tst_mlmdimporter beside this script.

  tfx_store/metadata.sqlite   schema version 10 (the current one), the tables as ML Metadata's
                              SQLite source creates them (ml_metadata/util/
                              metadata_source_query_config.cc), holding a TFX-like pipeline run twice:
                              ExampleGen -> StatisticsGen -> SchemaGen -> Transform -> Trainer ->
                              Evaluator -> Pusher, then a second run whose SchemaGen is CACHED and
                              whose Trainer FAILED (its Model a PENDING_OUTPUT, ABANDONED).
  v7_store/metadata.sqlite    schema version 7: no external_id columns (version 9), no proto_value
                              or bool_value (version 10), Event without its unique key (version 8).
  notmlmd/metadata.sqlite     another application's SQLite file with an MLMD-like name.
  empty/mlmd.sqlite           an SQLite database without tables.

For each store it also writes what the importer must make of it, from what it wrote (never from
the importer's output): NAME.nodes.tsv (key after '#', kind, type, name, uri, state, start_ns,
end_ns, properties JSON) and NAME.edges.tsv (from, to, kind, properties JSON), lines sorted.

Run it again only to change the fixtures: the test's expectations are written against them.
"""

import base64
import json
import os
import sqlite3
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# Type.type_kind
EXECUTION_TYPE, ARTIFACT_TYPE, CONTEXT_TYPE = 0, 1, 2
# Artifact.State
PENDING, LIVE, ABANDONED = 1, 2, 5
# Execution.State
COMPLETE, FAILED, CACHED = 3, 4, 5
# Event.Type
UNKNOWN, DECLARED_OUTPUT, INPUT, OUTPUT, PENDING_OUTPUT = 0, 1, 3, 4, 7
ARTIFACT_STATES = ["UNKNOWN", "PENDING", "LIVE", "MARKED_FOR_DELETION", "DELETED", "ABANDONED", "REFERENCE"]
EXECUTION_STATES = ["UNKNOWN", "NEW", "RUNNING", "COMPLETE", "FAILED", "CACHED", "CANCELED"]
EVENT_TYPES = ["UNKNOWN", "DECLARED_OUTPUT", "DECLARED_INPUT", "INPUT", "OUTPUT", "INTERNAL_INPUT",
               "INTERNAL_OUTPUT", "PENDING_OUTPUT"]
INPUT_EVENTS = {2, 3, 5}
# PropertyType (TypeProperty.data_type)
INT, DOUBLE, STRING, PROTO, BOOLEAN = 1, 2, 3, 5, 6


def ddl(version):
    """The CREATE statements of ML Metadata's SQLite source at `version` (7 or 10)."""
    ext = version >= 9
    v10 = version >= 10

    def prop_table(table, id_col):
        return f"""CREATE TABLE IF NOT EXISTS `{table}` (
            `{id_col}` INT NOT NULL,
            `name` VARCHAR(255) NOT NULL,
            `is_custom_property` TINYINT(1) NOT NULL,
            `int_value` INT,
            `double_value` DOUBLE,
            `string_value` TEXT,
            `byte_value` BLOB,
            {"`proto_value` BLOB, `bool_value` BOOLEAN," if v10 else ""}
            PRIMARY KEY (`{id_col}`, `name`, `is_custom_property`))"""

    def node_table(table, state_col, extra=""):
        return f"""CREATE TABLE IF NOT EXISTS `{table}` (
            `id` INTEGER PRIMARY KEY AUTOINCREMENT,
            `type_id` INT NOT NULL,
            {extra}
            {state_col}
            `name` VARCHAR(255),
            {"`external_id` VARCHAR(255) UNIQUE," if ext else ""}
            `create_time_since_epoch` INT NOT NULL DEFAULT 0,
            `last_update_time_since_epoch` INT NOT NULL DEFAULT 0,
            UNIQUE(`type_id`, `name`))"""

    stmts = [
        f"""CREATE TABLE IF NOT EXISTS `Type` (
            `id` INTEGER PRIMARY KEY AUTOINCREMENT,
            `name` VARCHAR(255) NOT NULL,
            `version` VARCHAR(255),
            `type_kind` TINYINT(1) NOT NULL,
            `description` TEXT,
            `input_type` TEXT,
            `output_type` TEXT
            {", `external_id` VARCHAR(255) UNIQUE" if ext else ""})""",
        """CREATE TABLE IF NOT EXISTS `ParentType` (
            `type_id` INT NOT NULL,
            `parent_type_id` INT NOT NULL,
            PRIMARY KEY (`type_id`, `parent_type_id`))""",
        """CREATE TABLE IF NOT EXISTS `TypeProperty` (
            `type_id` INT NOT NULL,
            `name` VARCHAR(255) NOT NULL,
            `data_type` INT NULL,
            PRIMARY KEY (`type_id`, `name`))""",
        node_table("Artifact", "`state` INT,", "`uri` TEXT,"),
        prop_table("ArtifactProperty", "artifact_id"),
        node_table("Execution", "`last_known_state` INT,"),
        prop_table("ExecutionProperty", "execution_id"),
        f"""CREATE TABLE IF NOT EXISTS `Context` (
            `id` INTEGER PRIMARY KEY AUTOINCREMENT,
            `type_id` INT NOT NULL,
            `name` VARCHAR(255) NOT NULL,
            {"`external_id` VARCHAR(255) UNIQUE," if ext else ""}
            `create_time_since_epoch` INT NOT NULL DEFAULT 0,
            `last_update_time_since_epoch` INT NOT NULL DEFAULT 0,
            UNIQUE(`type_id`, `name`))""",
        prop_table("ContextProperty", "context_id"),
        """CREATE TABLE IF NOT EXISTS `ParentContext` (
            `context_id` INT NOT NULL,
            `parent_context_id` INT NOT NULL,
            PRIMARY KEY (`context_id`, `parent_context_id`))""",
        f"""CREATE TABLE IF NOT EXISTS `Event` (
            `id` INTEGER PRIMARY KEY AUTOINCREMENT,
            `artifact_id` INT NOT NULL,
            `execution_id` INT NOT NULL,
            `type` INT NOT NULL,
            `milliseconds_since_epoch` INT
            {", UNIQUE(`artifact_id`, `execution_id`, `type`)" if version >= 8 else ""})""",
        """CREATE TABLE IF NOT EXISTS `EventPath` (
            `event_id` INT NOT NULL,
            `is_index_step` TINYINT(1) NOT NULL,
            `step_index` INT,
            `step_key` TEXT)""",
        """CREATE TABLE IF NOT EXISTS `Association` (
            `id` INTEGER PRIMARY KEY AUTOINCREMENT,
            `context_id` INT NOT NULL,
            `execution_id` INT NOT NULL,
            UNIQUE(`context_id`, `execution_id`))""",
        """CREATE TABLE IF NOT EXISTS `Attribution` (
            `id` INTEGER PRIMARY KEY AUTOINCREMENT,
            `context_id` INT NOT NULL,
            `artifact_id` INT NOT NULL,
            UNIQUE(`context_id`, `artifact_id`))""",
        "CREATE TABLE IF NOT EXISTS `MLMDEnv` (`schema_version` INTEGER PRIMARY KEY)",
        # Secondary indices.
        "CREATE INDEX IF NOT EXISTS `idx_artifact_uri` ON `Artifact`(`uri`)",
        "CREATE INDEX IF NOT EXISTS `idx_artifact_create_time_since_epoch` ON `Artifact`(`create_time_since_epoch`)",
        "CREATE INDEX IF NOT EXISTS `idx_artifact_last_update_time_since_epoch` "
        "ON `Artifact`(`last_update_time_since_epoch`)",
        "CREATE INDEX IF NOT EXISTS `idx_event_execution_id` ON `Event`(`execution_id`)",
        "CREATE INDEX IF NOT EXISTS `idx_parentcontext_parent_context_id` ON `ParentContext`(`parent_context_id`)",
        "CREATE INDEX IF NOT EXISTS `idx_type_name` ON `Type`(`name`)",
        "CREATE INDEX IF NOT EXISTS `idx_execution_create_time_since_epoch` "
        "ON `Execution`(`create_time_since_epoch`)",
        "CREATE INDEX IF NOT EXISTS `idx_execution_last_update_time_since_epoch` "
        "ON `Execution`(`last_update_time_since_epoch`)",
        "CREATE INDEX IF NOT EXISTS `idx_context_create_time_since_epoch` ON `Context`(`create_time_since_epoch`)",
        "CREATE INDEX IF NOT EXISTS `idx_context_last_update_time_since_epoch` "
        "ON `Context`(`last_update_time_since_epoch`)",
        "CREATE INDEX IF NOT EXISTS `idx_eventpath_event_id` ON `EventPath`(`event_id`)",
    ]
    if version < 8:
        stmts.append("CREATE INDEX IF NOT EXISTS `idx_event_artifact_id` ON `Event`(`artifact_id`)")
    else:
        for table, prefix in (("ArtifactProperty", "artifact"), ("ExecutionProperty", "execution"),
                              ("ContextProperty", "context")):
            for kind in ("int", "double", "string"):
                stmts.append(f"CREATE INDEX IF NOT EXISTS `idx_{prefix}_property_{kind}` ON `{table}`"
                             f"(`name`, `is_custom_property`, `{kind}_value`) WHERE `{kind}_value` IS NOT NULL")
    if ext:
        for table in ("Type", "Artifact", "Execution", "Context"):
            stmts.append(f"CREATE INDEX IF NOT EXISTS `idx_{table.lower()}_external_id` ON `{table}`(`external_id`)")
    return stmts


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def any_proto(type_url, payload):
    """A serialized google.protobuf.Any: type_url (field 1) and value (field 2)."""
    url = type_url.encode()
    return b"\x0a" + varint(len(url)) + url + b"\x12" + varint(len(payload)) + payload


def string_value(s):
    """A serialized google.protobuf.StringValue."""
    b = s.encode()
    return b"\x0a" + varint(len(b)) + b


def pb_len(field, payload):
    return varint(field << 3 | 2) + varint(len(payload)) + payload


def pb_value(v):
    """A serialized google.protobuf.Value."""
    if v is None:
        return varint(1 << 3) + varint(0)
    if isinstance(v, bool):
        return varint(4 << 3) + varint(1 if v else 0)
    if isinstance(v, float):
        return varint(2 << 3 | 1) + struct.pack("<d", v)
    if isinstance(v, str):
        return pb_len(3, v.encode())
    if isinstance(v, dict):
        return pb_len(5, pb_struct(v))
    return pb_len(6, b"".join(pb_len(1, pb_value(x)) for x in v))


def pb_struct(d):
    """A serialized google.protobuf.Struct, its entries in the dict's order."""
    return b"".join(pb_len(1, pb_len(1, k.encode()) + pb_len(2, pb_value(v))) for k, v in d.items())


def struct_property(d):
    """A struct property value as ML Metadata stores it in string_value, and the JSON it holds."""
    return ("struct", "mlmd-struct::" + base64.b64encode(pb_struct(d)).decode(), d)


class Store:
    def __init__(self, path, version):
        if os.path.exists(path):
            os.remove(path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self.db = sqlite3.connect(path)
        self.version = version
        for s in ddl(version):
            self.db.execute(s)
        self.db.execute("INSERT INTO `MLMDEnv`(`schema_version`) VALUES (?)", (version,))
        self.types = {}
        self.path = path
        self.nodes = {}  # "artifact/1" -> the lineage_node row the importer must write
        self.edges = {}  # (from, to, kind) -> properties JSON; a later event replaces an earlier one

    def type(self, name, kind, props=()):
        cur = self.db.execute("INSERT INTO `Type`(`name`, `type_kind`) VALUES (?, ?)", (name, kind))
        self.types[name] = cur.lastrowid
        for pname, dtype in props:
            self.db.execute("INSERT INTO `TypeProperty` VALUES (?, ?, ?)", (cur.lastrowid, pname, dtype))
        return cur.lastrowid

    def _props(self, table, id_col, row_id, props, custom):
        for is_custom, values in ((0, props), (1, custom)):
            for name, value in values.items():
                if isinstance(value, bool):
                    column = "bool_value"
                    value = 1 if value else 0
                elif isinstance(value, int):
                    column = "int_value"
                elif isinstance(value, float):
                    column = "double_value"
                elif isinstance(value, str):
                    column = "string_value"
                elif isinstance(value, tuple) and value[0] == "proto":
                    column, value = "proto_value", value[1]
                elif isinstance(value, tuple) and value[0] == "struct":
                    column, value = "string_value", value[1]
                else:
                    column, value = "byte_value", bytes(value)
                self.db.execute(f"INSERT INTO `{table}`(`{id_col}`, `name`, `is_custom_property`, `{column}`) "
                                "VALUES (?, ?, ?, ?)", (row_id, name, is_custom, value))

    @staticmethod
    def _json_value(value):
        if isinstance(value, tuple) and value[0] == "proto":
            raw = value[1]
            url_len = raw[1]  # the fixtures' type_urls are shorter than 128 bytes
            return {"proto_type": raw[2:2 + url_len].decode(), "proto_base64": base64.b64encode(raw).decode()}
        if isinstance(value, tuple) and value[0] == "struct":
            return value[2]
        if isinstance(value, (bytes, bytearray)):
            return {"bytes_base64": base64.b64encode(bytes(value)).decode()}
        return value

    def _expect_node(self, path, kind, type_name, row_id, name, uri, state, create, update, props, custom,
                     external_id):
        p = {"mlmd_id": row_id}
        if external_id and self.version >= 9:
            p["external_id"] = external_id
        for member, values in (("properties", props), ("custom_properties", custom)):
            if values:
                p[member] = {k: self._json_value(values[k]) for k in sorted(values)}
        self.nodes[f"{path}/{row_id}"] = [
            kind, type_name, name or f"{type_name} {row_id}", uri or "", state, str(create * 1000000) if create else "",
            str(update * 1000000) if update else "", json.dumps(p, separators=(",", ":"), ensure_ascii=False)]

    def write_expected(self, stem):
        with open(stem + ".nodes.tsv", "w") as f:
            f.write("key\tkind\ttype\tname\turi\tstate\tstart_ns\tend_ns\tproperties\n")
            for line in sorted("\t".join([k] + v) for k, v in self.nodes.items()):
                f.write(line + "\n")
        with open(stem + ".edges.tsv", "w") as f:
            f.write("from\tto\tkind\tproperties\n")
            for line in sorted("\t".join(list(k) + [v]) for k, v in self.edges.items()):
                f.write(line + "\n")

    def _external(self, external_id):
        return ({"external_id": external_id} if self.version >= 9 and external_id else {})

    def _insert(self, table, row):
        cols = ", ".join(f"`{c}`" for c in row)
        marks = ", ".join("?" for _ in row)
        return self.db.execute(f"INSERT INTO `{table}`({cols}) VALUES ({marks})", tuple(row.values())).lastrowid

    def artifact(self, type_name, uri, state, t_ms, name=None, props=None, custom=None, external_id=None):
        row = {"type_id": self.types[type_name], "uri": uri, "state": state, "name": name,
               "create_time_since_epoch": t_ms, "last_update_time_since_epoch": t_ms + 500}
        row.update(self._external(external_id))
        aid = self._insert("Artifact", row)
        self._props("ArtifactProperty", "artifact_id", aid, props or {}, custom or {})
        self._expect_node("artifact", "artifact", type_name, aid, name, uri, ARTIFACT_STATES[state], t_ms, t_ms + 500,
                          props, custom, external_id)
        return aid

    def execution(self, type_name, state, t_ms, dur_ms, name=None, props=None, custom=None, external_id=None):
        row = {"type_id": self.types[type_name], "last_known_state": state, "name": name,
               "create_time_since_epoch": t_ms, "last_update_time_since_epoch": t_ms + dur_ms}
        row.update(self._external(external_id))
        eid = self._insert("Execution", row)
        self._props("ExecutionProperty", "execution_id", eid, props or {}, custom or {})
        self._expect_node("execution", "execution", type_name, eid, name, None, EXECUTION_STATES[state], t_ms,
                          t_ms + dur_ms, props, custom, external_id)
        return eid

    def context(self, type_name, name, t_ms, props=None, custom=None, external_id=None):
        row = {"type_id": self.types[type_name], "name": name, "create_time_since_epoch": t_ms,
               "last_update_time_since_epoch": t_ms}
        row.update(self._external(external_id))
        cid = self._insert("Context", row)
        self._props("ContextProperty", "context_id", cid, props or {}, custom or {})
        self._expect_node("context", "context", type_name, cid, name, None, "", t_ms, t_ms, props, custom,
                          external_id)
        return cid

    def event(self, artifact, execution, etype, t_ms, key, index=0):
        ev = self._insert("Event", {"artifact_id": artifact, "execution_id": execution, "type": etype,
                                    "milliseconds_since_epoch": t_ms})
        # An Event.Path as TFX writes it: the channel key, then the index in the channel.
        self.db.execute("INSERT INTO `EventPath`(`event_id`, `is_index_step`, `step_key`) VALUES (?, 0, ?)",
                        (ev, key))
        self.db.execute("INSERT INTO `EventPath`(`event_id`, `is_index_step`, `step_index`) VALUES (?, 1, ?)",
                        (ev, index))
        if etype != UNKNOWN:
            a, e = f"artifact/{artifact}", f"execution/{execution}"
            edge = (a, e, "input") if etype in INPUT_EVENTS else (e, a, "output")
            props = {"event_type": EVENT_TYPES[etype], "path": [key, index]}
            if t_ms:
                props["time_ns"] = t_ms * 1000000
            self.edges[edge] = json.dumps(props, separators=(",", ":"), ensure_ascii=False)
        return ev

    def attribute(self, context, artifact):
        # A cached execution's output is already attributed to its node.
        self.db.execute("INSERT OR IGNORE INTO `Attribution`(`context_id`, `artifact_id`) VALUES (?, ?)",
                        (context, artifact))
        self.edges[(f"context/{context}", f"artifact/{artifact}", "contains")] = ""

    def associate(self, context, execution):
        self._insert("Association", {"context_id": context, "execution_id": execution})
        self.edges[(f"context/{context}", f"execution/{execution}", "contains")] = ""

    def parent(self, parent, child):
        self._insert("ParentContext", {"context_id": child, "parent_context_id": parent})
        self.edges[(f"context/{parent}", f"context/{child}", "parent")] = ""

    def close(self):
        self.db.commit()
        self.db.execute("VACUUM")
        self.db.close()
        self.write_expected(os.path.dirname(self.path))


COMPONENTS = ["ExampleGen", "StatisticsGen", "SchemaGen", "Transform", "Trainer", "Evaluator", "Pusher"]
ARTIFACT_TYPES = ["Examples", "ExampleStatistics", "Schema", "TransformGraph", "Model", "ModelEvaluation",
                  "ModelBlessing", "PushedModel"]
T0 = 1764576000000  # 2025-12-01T08:00:00Z, ms


def tfx_store(path):
    s = Store(path, 10)
    for name in ARTIFACT_TYPES:
        props = [("span", INT), ("split_names", STRING), ("version", INT)] if name in (
            "Examples", "ExampleStatistics") else []
        s.type(name, ARTIFACT_TYPE, props)
    for name in COMPONENTS:
        s.type(name, EXECUTION_TYPE, [("component_id", STRING), ("pipeline_name", STRING)])
    for name in ("pipeline", "pipeline_run", "node"):
        s.type(name, CONTEXT_TYPE, [("pipeline_name", STRING)])

    pipeline = s.context("pipeline", "taxi_pipeline", T0, props={"pipeline_name": "taxi_pipeline"},
                         custom={"pipeline_root": "/pipelines/taxi"}, external_id="pipeline/taxi")
    runs = [s.context("pipeline_run", f"taxi_pipeline.run-{n}", T0 + n * 3600000,
                      props={"pipeline_name": "taxi_pipeline"}) for n in (1, 2)]
    nodes = {c: s.context("node", f"taxi_pipeline.{c}", T0, props={"pipeline_name": "taxi_pipeline"})
             for c in COMPONENTS}
    for r in runs:
        s.parent(pipeline, r)
    for c in COMPONENTS:
        s.parent(pipeline, nodes[c])

    def run_execution(run, component, state, t, dur, custom=None):
        e = s.execution(component, state, t, dur,
                        name=f"{component}-run{runs.index(run) + 1}",
                        props={"component_id": component, "pipeline_name": "taxi_pipeline"}, custom=custom)
        for ctx in (pipeline, run, nodes[component]):
            s.associate(ctx, e)
        return e

    def output(run, component, execution, artifact, t, key, etype=OUTPUT):
        s.event(artifact, execution, etype, t, key)
        s.attribute(run, artifact)
        s.attribute(nodes[component], artifact)

    # Run 1: everything completes; the model is blessed and pushed.
    run, t = runs[0], T0 + 3600000
    e = run_execution(run, "ExampleGen", COMPLETE, t, 60000, custom={"input_fingerprint": "split:train,num_files:4"})
    examples = s.artifact("Examples", "/pipelines/taxi/ExampleGen/examples/1", LIVE, t + 60000,
                          props={"span": 0, "split_names": '["train", "eval"]', "version": 1},
                          custom={"file_format": "tfrecords_gzip", "is_external": True,
                                  "fingerprint": b"\x00\x01\xfe\xff"}, external_id="examples/1")
    output(run, "ExampleGen", e, examples, t + 60000, "examples")
    t += 120000
    e = run_execution(run, "StatisticsGen", COMPLETE, t, 30000)
    s.event(examples, e, INPUT, t, "examples")
    stats = s.artifact("ExampleStatistics", "/pipelines/taxi/StatisticsGen/statistics/2", LIVE, t + 30000,
                       props={"span": 0, "split_names": '["train", "eval"]'})
    output(run, "StatisticsGen", e, stats, t + 30000, "statistics")
    t += 60000
    e = run_execution(run, "SchemaGen", COMPLETE, t, 10000)
    s.event(stats, e, INPUT, t, "statistics")
    schema = s.artifact("Schema", "/pipelines/taxi/SchemaGen/schema/3", LIVE, t + 10000)
    output(run, "SchemaGen", e, schema, t + 10000, "schema")
    t += 60000
    e = run_execution(run, "Transform", COMPLETE, t, 90000)
    s.event(examples, e, INPUT, t, "examples")
    s.event(schema, e, INPUT, t, "schema")
    graph = s.artifact("TransformGraph", "/pipelines/taxi/Transform/transform_graph/4", LIVE, t + 90000)
    output(run, "Transform", e, graph, t + 90000, "transform_graph")
    t += 120000
    trainer = run_execution(run, "Trainer", COMPLETE, t, 600000,
                            custom={"train_steps": 1000, "learning_rate": 0.001, "warm_start": False})
    for a, key in ((examples, "examples"), (graph, "transform_graph"), (schema, "schema")):
        s.event(a, trainer, INPUT, t, key)
    model = s.artifact("Model", "/pipelines/taxi/Trainer/model/5", LIVE, t + 600000, name="taxi-model",
                       custom={"serving_signature": ("proto", any_proto(
                           "type.googleapis.com/google.protobuf.StringValue", string_value("serving_default"))),
                           "framework": "tensorflow", "num_params": 1234567,
                           # Struct values (Kubeflow Pipelines v2 artifact metadata). The second is
                           # the serialization another implementation (Go's structpb) wrote.
                           "metadata": struct_property({"display_name": "taxi model", "epochs": 10.0,
                                                        "metrics": {"accuracy": 0.875, "loss": 0.25},
                                                        "tags": ["prod", True, None]}),
                           "languages": ("struct", "mlmd-struct::CiAKCGxhbmd1YWdlEhQyEgoEGgJlbgoEGgJlcwoEGgJjeg==",
                                         {"language": ["en", "es", "cz"]}),
                           "broken": ("struct", "mlmd-struct::////", {"struct_base64": "////"})})
    output(run, "Trainer", trainer, model, t + 600000, "model")
    t += 660000
    e = run_execution(run, "Evaluator", COMPLETE, t, 120000)
    s.event(examples, e, INPUT, t, "examples")
    s.event(model, e, INPUT, t, "model")
    evaluation = s.artifact("ModelEvaluation", "/pipelines/taxi/Evaluator/evaluation/6", LIVE, t + 120000,
                            custom={"accuracy": 0.875, "auc": 0.9375})
    blessing = s.artifact("ModelBlessing", "/pipelines/taxi/Evaluator/blessing/7", LIVE, t + 120000,
                          custom={"blessed": 1, "current_model_id": model})
    output(run, "Evaluator", e, evaluation, t + 120000, "evaluation")
    output(run, "Evaluator", e, blessing, t + 120000, "blessing")
    t += 180000
    e = run_execution(run, "Pusher", COMPLETE, t, 20000)
    s.event(model, e, INPUT, t, "model")
    s.event(blessing, e, INPUT, t, "model_blessing")
    pushed = s.artifact("PushedModel", "/serving/taxi/1764580000", LIVE, t + 20000,
                        custom={"pushed": 1, "pushed_version": "1764580000",
                                "pushed_destination": "/serving/taxi"})
    output(run, "Pusher", e, pushed, t + 20000, "pushed_model")

    # Run 2: new examples, SchemaGen cached (its output is run 1's schema), the Trainer fails.
    run, t = runs[1], T0 + 7200000
    e = run_execution(run, "ExampleGen", COMPLETE, t, 60000)
    examples2 = s.artifact("Examples", "/pipelines/taxi/ExampleGen/examples/8", LIVE, t + 60000,
                           props={"span": 1, "split_names": '["train", "eval"]', "version": 1})
    s.event(examples2, e, DECLARED_OUTPUT, t, "examples")  # registered before it was written
    output(run, "ExampleGen", e, examples2, t + 60000, "examples")
    t += 120000
    e = run_execution(run, "StatisticsGen", COMPLETE, t, 30000)
    s.event(examples2, e, INPUT, t, "examples")
    stats2 = s.artifact("ExampleStatistics", "/pipelines/taxi/StatisticsGen/statistics/9", LIVE, t + 30000,
                        props={"span": 1, "split_names": '["train", "eval"]'})
    output(run, "StatisticsGen", e, stats2, t + 30000, "statistics")
    t += 60000
    e = run_execution(run, "SchemaGen", CACHED, t, 1000)
    s.event(stats2, e, INPUT, t, "statistics")
    output(run, "SchemaGen", e, schema, t + 1000, "schema")
    t += 60000
    e = run_execution(run, "Transform", COMPLETE, t, 90000)
    s.event(examples2, e, INPUT, t, "examples")
    s.event(schema, e, INPUT, t, "schema")
    graph2 = s.artifact("TransformGraph", "/pipelines/taxi/Transform/transform_graph/10", LIVE, t + 90000)
    output(run, "Transform", e, graph2, t + 90000, "transform_graph")
    t += 120000
    failed = run_execution(run, "Trainer", FAILED, t, 45000,
                           custom={"error_message": "OOM: ran out of GPU memory at step 212"})
    for a, key in ((examples2, "examples"), (graph2, "transform_graph"), (schema, "schema")):
        s.event(a, failed, INPUT, t, key)
    model2 = s.artifact("Model", "/pipelines/taxi/Trainer/model/11", ABANDONED, t)
    output(run, "Trainer", failed, model2, t, "model", etype=PENDING_OUTPUT)
    s.event(model2, failed, UNKNOWN, t + 45000, "model")  # says neither input nor output: skipped
    s.close()


def v7_store(path):
    s = Store(path, 7)
    s.type("Examples", ARTIFACT_TYPE, [("span", INT)])
    s.type("Model", ARTIFACT_TYPE)
    s.type("ExampleGen", EXECUTION_TYPE)
    s.type("Trainer", EXECUTION_TYPE)
    s.type("pipeline", CONTEXT_TYPE)
    pipeline = s.context("pipeline", "old_pipeline", T0)
    e = s.execution("ExampleGen", COMPLETE, T0, 1000, custom={"note": "written by ML Metadata 0.26"})
    examples = s.artifact("Examples", "/old/examples/1", LIVE, T0 + 1000, props={"span": 3},
                          custom={"checksum": b"\xde\xad\xbe\xef"})
    s.event(examples, e, OUTPUT, T0 + 1000, "examples")
    t = s.execution("Trainer", COMPLETE, T0 + 2000, 5000)
    s.event(examples, t, INPUT, T0 + 2000, "examples")
    model = s.artifact("Model", "/old/model/2", LIVE, T0 + 7000, custom={"loss": 0.25})
    s.event(model, t, OUTPUT, T0 + 7000, "model")
    for ex in (e, t):
        s.associate(pipeline, ex)
    for a in (examples, model):
        s.attribute(pipeline, a)
    s.close()


def not_mlmd(path):
    if os.path.exists(path):
        os.remove(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body TEXT)")
    db.execute("CREATE TABLE Artifact(id INTEGER PRIMARY KEY, path TEXT)")
    db.execute("INSERT INTO notes(title, body) VALUES ('metadata', 'not an ML Metadata store')")
    db.commit()
    db.close()


def empty(path):
    if os.path.exists(path):
        os.remove(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 1")  # writes the header: a valid database without tables
    db.commit()
    db.close()


if __name__ == "__main__":
    tfx_store(os.path.join(HERE, "tfx_store", "metadata.sqlite"))
    v7_store(os.path.join(HERE, "v7_store", "metadata.sqlite"))
    not_mlmd(os.path.join(HERE, "notmlmd", "metadata.sqlite"))
    empty(os.path.join(HERE, "empty", "mlmd.sqlite"))
