#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the MLflow fixtures of tst_mlflowimporter and what the importer must store from them.

filestore/mlruns/  a file store laid out as MLflow's FileStore writes it: experiments 0 (Default,
                   two runs, one of them deleted in place), 1 (sweep, one running run), 2 (no runs)
                   and .trash/3 (a deleted experiment); nested metric keys, legacy two-field metric
                   lines, a restart, NaN and infinities, params and tags.
filestore3/mlruns/ an experiment as MLflow 3's FileStore writes it: metric lines that name the
                   evaluation dataset ("timestamp value step dataset digest"), a logged model
                   (models/<id>/ with its meta.yaml, params and metric lines that name the run), the
                   experiment's datasets/ and traces/ folders, and a run's inputs/ and outputs/.
sqlstore/mlflow.db a SQL store with a minimal schema compatible with MLflow's (same tables and
                   columns as its published latest schema, for the tables read here), a dataset input.
sqlstore2019/mlflow.db the same in the first revision's layout (no metric step or is_nan).
notmlflow/mlflow.db another application's SQLite database under the same name.

NAME.runs.csv, NAME.params.csv and NAME.points.csv are derived here from what was written, not from
the importer (a newline in a value is written as \\n). A run's span is its start and end times. Run `python3 gen_fixtures.py` in this folder; the output is committed.
"""
import json
import math
import os
import shutil
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1700000000000  # ms
DBL_MAX = 1.7976931348623157e308


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="\n") as f:
        f.write(text)


def fmt(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return "%.9g" % v


class Expect:
    def __init__(self):
        self.runs, self.params, self.points = [], [], []

    def save(self, name):
        for what, header, rows in (("runs", "run,group,status,start_ns,end_ns,lifecycle,mlflow_status", self.runs),
                                   ("params", "run,key,value,kind", self.params),
                                   ("points", "run,key,step,wall_ns,value", self.points)):
            with open(os.path.join(HERE, "%s.%s.csv" % (name, what)), "w", newline="\n") as f:
                f.write(header + "\n")
                lines = [",".join(str(x).replace("\n", "\\n") for x in r) for r in rows]
                f.write("".join(line + "\n" for line in sorted(lines)))


def is_number(s):
    try:
        return math.isfinite(float(s))
    except ValueError:
        return False


STATUS = {1: "RUNNING", 2: "SCHEDULED", 3: "FINISHED", 4: "FAILED", 5: "KILLED"}
WS_STATUS = {"RUNNING": "running", "FINISHED": "success", "FAILED": "failure", "KILLED": "failure"}


def file_store(e):
    root = os.path.join(HERE, "filestore", "mlruns")
    shutil.rmtree(os.path.join(HERE, "filestore"), ignore_errors=True)

    def experiment(folder, exp_id, name, stage="active"):
        write(os.path.join(folder, "meta.yaml"),
              "artifact_location: file:///tmp/mlruns/%s\ncreation_time: %d\nexperiment_id: '%s'\n"
              "last_update_time: %d\nlifecycle_stage: %s\nname: %s\n" % (exp_id, T0, exp_id, T0, stage, name))

    def run(folder, exp_id, group, run_id, status, stage, run_name, metrics, params, tags, end=True,
            deleted=False):
        d = os.path.join(folder, run_id)
        start, stop = T0 + 1000, T0 + 61000
        meta = ("artifact_uri: file:///tmp/mlruns/%s/%s/artifacts\n" % (exp_id, run_id)
                + ("end_time: %d\n" % stop if end else "end_time: null\n")
                + "entry_point_name: ''\nexperiment_id: '%s'\nlifecycle_stage: %s\n" % (exp_id, stage)
                + ("run_name: %s\n" % run_name if run_name else "name: ''\n")
                + "run_id: %s\nrun_uuid: %s\nsource_name: ''\nsource_type: 4\nsource_version: ''\n"
                  "start_time: %d\nstatus: %d\ntags: []\nuser_id: tester\n" % (run_id, run_id, start, status))
        write(os.path.join(d, "meta.yaml"), meta)
        name = run_name or tags.get("mlflow.runName") or run_id
        lines_written = {}
        wall_end = stop
        for key, lines in metrics.items():
            text = ""
            for line in lines:
                if isinstance(line, str):  # a damaged line
                    text += line + "\n"
                    continue
                ts, value = line[0], line[1]
                step = line[2] if len(line) == 3 else 0
                text += ("%d %r %d\n" % (ts, value, step)) if len(line) == 3 else ("%d %r\n" % (ts, value))
                e.points.append((name, key, step, ts * 1000000, fmt(value)))
                wall_end = max(wall_end, ts)
            lines_written[key] = text
            write(os.path.join(d, "metrics", *key.split("/")), text)
        for k, v in params.items():
            write(os.path.join(d, "params", k), v)
        for k, v in tags.items():
            write(os.path.join(d, "tags", k), v)
        merged = {k: (v, "tag") for k, v in tags.items()}
        merged.update({k: (v, "number" if is_number(v) else "string") for k, v in params.items()})
        for k, (v, kind) in merged.items():
            e.params.append((name, k, v, kind))
        st = STATUS[status]
        e.runs.append((name, group, WS_STATUS.get(st, "unknown"), start * 1000000,
                       (stop if end else start) * 1000000, "deleted" if deleted else "active", st))

    e0 = os.path.join(root, "0")
    experiment(e0, "0", "Default")
    run(e0, "0", "Default", "a1" * 16, 3, "active", "alpha",
        {"loss": [(T0 + 2000, 0.5, 0), (T0 + 3000, 0.25, 1), (T0 + 4000, 0.125, 2)],
         "train/acc": [(T0 + 2000, 0.75, 0), (T0 + 3000, 0.875, 1)],
         "legacy": [(T0 + 2000, 1.5), (T0 + 3000, 2.5)]},
        {"lr": "0.001", "optimizer": "adam"},
        {"mlflow.runName": "alpha", "mlflow.user": "tester", "note": "two\nlines"})
    run(e0, "0", "Default", "b2" * 16, 4, "deleted", None,
        {"loss": [(T0 + 2000, 1.0, 0), (T0 + 3000, float("nan"), 1), (T0 + 4000, float("inf"), 2),
                  "garbage here", (T0 + 5000, float("-inf"), 0), (T0 + 6000, 3.0, 1)]},
        {"lr": "0.01"}, {"mlflow.runName": "beta"}, deleted=True)
    e1 = os.path.join(root, "1")
    experiment(e1, "1", "sweep")
    run(e1, "1", "sweep", "c3" * 16, 1, "active", "gamma",
        {"val/top/k": [(T0 + 2000, 4.0, 10)]}, {"batch_size": "32", "model": "resnet 50"}, {}, end=False)
    experiment(os.path.join(root, "2"), "2", "empty")
    e3 = os.path.join(root, ".trash", "3")
    experiment(e3, "3", "old", "deleted")
    run(e3, "3", "old", "d4" * 16, 5, "active", "omega", {"loss": [(T0 + 2000, 9.0, 0)]}, {}, {}, deleted=True)
    write(os.path.join(e0, "a1" * 16, "artifacts", "notes.txt"), "an artifact: left to other importers\n")


def file_store_v3(e):
    """MLflow 3: a run's metric line names the dataset it was evaluated on when one was given, and
    the same values go to the logged model's own metric files, whose lines name the run."""
    root = os.path.join(HERE, "filestore3", "mlruns")
    shutil.rmtree(os.path.join(HERE, "filestore3"), ignore_errors=True)
    exp = os.path.join(root, "7")
    write(os.path.join(exp, "meta.yaml"),
          "artifact_location: file:///tmp/mlruns/7\ncreation_time: %d\nexperiment_id: '7'\n"
          "last_update_time: %d\nlifecycle_stage: active\nname: genai\n" % (T0, T0))
    run_id, model_id = "e5" * 16, "m-0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    start, stop = T0 + 1000, T0 + 61000
    d = os.path.join(exp, run_id)
    write(os.path.join(d, "meta.yaml"),
          "artifact_uri: file:///tmp/mlruns/7/%s/artifacts\nend_time: %d\nentry_point_name: ''\n"
          "experiment_id: '7'\nlifecycle_stage: active\nrun_id: %s\nrun_name: delta\nrun_uuid: %s\n"
          "source_name: ''\nsource_type: 4\nsource_version: ''\nstart_time: %d\nstatus: 3\ntags: []\n"
          "user_id: tester\n" % (run_id, stop, run_id, run_id, start))
    # loss without a dataset; accuracy on two evaluation datasets (one named with a space)
    loss = [(T0 + 2000, 0.5, 0), (T0 + 3000, 0.25, 1)]
    acc = [(T0 + 2500, 0.75, 0, "eval_ds", "1a2b3c4d"), (T0 + 3500, 0.8125, 1, "eval_ds", "1a2b3c4d"),
           (T0 + 3600, 0.625, 1, "held out", "9f8e7d6c")]
    write(os.path.join(d, "metrics", "loss"), "".join("%d %r %d\n" % line for line in loss))
    write(os.path.join(d, "metrics", "accuracy"), "".join("%d %r %d %s %s\n" % line for line in acc))
    for ts, value, step in loss:
        e.points.append(("delta", "loss", step, ts * 1000000, fmt(value)))
    for ts, value, step, _, _ in acc:
        e.points.append(("delta", "accuracy", step, ts * 1000000, fmt(value)))
    write(os.path.join(d, "params", "temperature"), "0.7")
    e.params.append(("delta", "temperature", "0.7", "number"))
    write(os.path.join(d, "tags", "mlflow.runName"), "delta")
    e.params.append(("delta", "mlflow.runName", "delta", "tag"))
    write(os.path.join(d, "inputs", "3c" * 16, "meta.yaml"),
          "destination_id: 5d5d5d5d\ndestination_type: RUN\nsource_id: 5d5d5d5d\nsource_type: DATASET\ntags:\n"
          "  mlflow.data.context: eval\n")
    write(os.path.join(d, "outputs", model_id, "meta.yaml"),
          "destination_id: %s\ndestination_type: MODEL_OUTPUT\nsource_id: %s\nsource_type: RUN_OUTPUT\n"
          "step: 1\ntags: {}\n" % (run_id, model_id))
    e.runs.append(("delta", "genai", "success", start * 1000000, stop * 1000000, "active", "FINISHED"))
    m = os.path.join(exp, "models", model_id)
    write(os.path.join(m, "meta.yaml"),
          "artifact_location: file:///tmp/mlruns/7/models/%s/artifacts\ncreation_timestamp: %d\n"
          "experiment_id: '7'\nlast_updated_timestamp: %d\nmodel_id: %s\nmodel_type: ''\nname: model\n"
          "source_run_id: %s\nstatus: 2\nstatus_message: null\n" % (model_id, T0, T0, model_id, run_id))
    write(os.path.join(m, "metrics", "accuracy"),
          "".join("%d %r %d %s %s %s\n" % (ts, v, st, run_id, ds, dg) for ts, v, st, ds, dg in acc))
    write(os.path.join(m, "params", "temperature"), "0.7")
    write(os.path.join(exp, "datasets", "5d5d5d5d", "meta.yaml"),
          "digest: 1a2b3c4d\nname: eval_ds\nprofile: '{\"num_rows\": 3}'\nschema: ''\nsource: '{}'\n"
          "source_type: code\n")
    write(os.path.join(exp, "traces", "tr-0123", "trace_info.yaml"),
          "experiment_id: '7'\nrequest_id: tr-0123\nstatus: OK\ntimestamp_ms: %d\n" % (T0 + 2000))


SCHEMA = """
CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, PRIMARY KEY (version_num));
CREATE TABLE experiments (experiment_id INTEGER NOT NULL, name VARCHAR(256) NOT NULL,
  artifact_location VARCHAR(256), lifecycle_stage VARCHAR(32), creation_time BIGINT, last_update_time BIGINT,
  PRIMARY KEY (experiment_id), UNIQUE (name));
CREATE TABLE runs (run_uuid VARCHAR(32) NOT NULL, name VARCHAR(250), source_type VARCHAR(20),
  source_name VARCHAR(500), entry_point_name VARCHAR(50), user_id VARCHAR(256), status VARCHAR(9),
  start_time BIGINT, end_time BIGINT, source_version VARCHAR(50), lifecycle_stage VARCHAR(20),
  artifact_uri VARCHAR(200), experiment_id INTEGER, deleted_time BIGINT, PRIMARY KEY (run_uuid));
CREATE TABLE metrics (key VARCHAR(250) NOT NULL, value FLOAT NOT NULL, timestamp BIGINT NOT NULL,
  run_uuid VARCHAR(32) NOT NULL, step BIGINT DEFAULT '0' NOT NULL, is_nan BOOLEAN DEFAULT '0' NOT NULL,
  PRIMARY KEY (key, timestamp, step, run_uuid, value, is_nan));
CREATE TABLE latest_metrics (key VARCHAR(250) NOT NULL, value FLOAT NOT NULL, timestamp BIGINT,
  step BIGINT NOT NULL, is_nan BOOLEAN NOT NULL, run_uuid VARCHAR(32) NOT NULL, PRIMARY KEY (key, run_uuid));
CREATE TABLE params (key VARCHAR(250) NOT NULL, value VARCHAR(8000) NOT NULL, run_uuid VARCHAR(32) NOT NULL,
  PRIMARY KEY (key, run_uuid));
CREATE TABLE tags (key VARCHAR(250) NOT NULL, value VARCHAR(5000), run_uuid VARCHAR(32) NOT NULL,
  PRIMARY KEY (key, run_uuid));
CREATE TABLE experiment_tags (key VARCHAR(250) NOT NULL, value VARCHAR(5000), experiment_id INTEGER NOT NULL,
  PRIMARY KEY (key, experiment_id));
CREATE TABLE datasets (dataset_uuid VARCHAR(36) NOT NULL, experiment_id INTEGER NOT NULL, name VARCHAR(500) NOT NULL,
  digest VARCHAR(36) NOT NULL, dataset_source_type VARCHAR(36) NOT NULL, dataset_source TEXT NOT NULL,
  dataset_schema TEXT, dataset_profile TEXT, PRIMARY KEY (experiment_id, name, digest));
CREATE TABLE inputs (input_uuid VARCHAR(36) NOT NULL, source_type VARCHAR(36) NOT NULL, source_id VARCHAR(36) NOT NULL,
  destination_type VARCHAR(36) NOT NULL, destination_id VARCHAR(36) NOT NULL,
  PRIMARY KEY (source_type, source_id, destination_type, destination_id));
CREATE TABLE input_tags (input_uuid VARCHAR(36) NOT NULL, name VARCHAR(255) NOT NULL, value VARCHAR(500) NOT NULL,
  PRIMARY KEY (input_uuid, name));
"""


def sql_store(e):
    path = os.path.join(HERE, "sqlstore", "mlflow.db")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    db.execute("INSERT INTO alembic_version VALUES ('0584bdc529eb')")
    exps = {0: ("Default", "active"), 1: ("sweep", "deleted")}
    for i, (name, stage) in exps.items():
        db.execute("INSERT INTO experiments VALUES (?,?,?,?,?,?)", (i, name, "mlflow-artifacts:/%d" % i, stage, T0, T0))
    runs = [("e5" * 16, "gamma", 0, "FINISHED", "active", True),
            ("f6" * 16, None, 1, "KILLED", "active", False),
            ("a7" * 16, "zeta", 0, "RUNNING", "deleted", False)]
    tags = {"f6" * 16: {"mlflow.runName": "delta", "mlflow.user": "tester"}, "e5" * 16: {"team": "perf"}}
    params = {"e5" * 16: {"lr": "0.001", "layers": "12", "act": "gelu"}, "f6" * 16: {"lr": "1e-3"}}
    metrics = {"e5" * 16: {"loss": [(T0 + 2000, 0.5, 0), (T0 + 3000, float("nan"), 1),
                                    (T0 + 4000, float("inf"), 2), (T0 + 5000, float("-inf"), 3)],
                           "eval/acc": [(T0 + 2500, 0.9, 5)]},
               "f6" * 16: {"loss": [(T0 + 2000, 2.0, 0), (T0 + 3000, 1.0, 1), (T0 + 4000, 3.0, 0)]}}
    for uuid, name, exp, status, stage, ended in runs:
        start, stop = T0 + 1000, T0 + 61000
        db.execute("INSERT INTO runs (run_uuid, name, source_type, user_id, status, start_time, end_time, "
                   "lifecycle_stage, artifact_uri, experiment_id) VALUES (?,?,?,?,?,?,?,?,?,?)",
                   (uuid, name, "LOCAL", "tester", status, start, stop if ended else None, stage,
                    "mlflow-artifacts:/%d/%s" % (exp, uuid), exp))
        shown = name or tags.get(uuid, {}).get("mlflow.runName") or uuid
        group, exp_stage = exps[exp]
        end_ns = (stop if ended else start) * 1000000
        for key, pts in metrics.get(uuid, {}).items():
            for ts, v, step in pts:
                e.points.append((shown, key, step, ts * 1000000, fmt(v)))
        deleted = stage == "deleted" or exp_stage == "deleted"
        e.runs.append((shown, group, WS_STATUS.get(status, "unknown"), start * 1000000, end_ns,
                       "deleted" if deleted else "active", status))
        for k, v in tags.get(uuid, {}).items():
            db.execute("INSERT INTO tags VALUES (?,?,?)", (k, v, uuid))
            e.params.append((shown, k, v, "tag"))
        for k, v in params.get(uuid, {}).items():
            db.execute("INSERT INTO params VALUES (?,?,?)", (k, v, uuid))
            e.params.append((shown, k, v, "number" if is_number(v) else "string"))
        for key, pts in metrics.get(uuid, {}).items():
            for ts, v, step in pts:
                # What MLflow's SqlAlchemyStore stores: NaN as is_nan with value 0, infinities as +-DBL_MAX.
                nan = math.isnan(v)
                stored = 0.0 if nan else (math.copysign(DBL_MAX, v) if math.isinf(v) else v)
                db.execute("INSERT INTO metrics VALUES (?,?,?,?,?,?)", (key, stored, ts, uuid, step, int(nan)))
    # A dataset logged as the training input of gamma (mlflow.log_input): a json param of the run.
    source = '{"uri": "s3://bucket/train"}'
    db.execute("INSERT INTO datasets VALUES ('ds1', 0, 'train-set', 'abc123', 's3', ?, NULL, NULL)", (source,))
    db.execute("INSERT INTO inputs VALUES ('in1', 'DATASET', 'ds1', 'RUN', ?)", ("e5" * 16,))
    db.execute("INSERT INTO input_tags VALUES ('in1', 'mlflow.data.context', 'training')")
    e.params.append(("gamma", "mlflow.dataset.train-set",
                     json.dumps({"digest": "abc123", "source_type": "s3", "source": source, "context": "training"},
                                separators=(",", ":"), sort_keys=True), "json"))
    db.commit()
    db.close()


def sql_store_2019(e):
    """The schema of MLflow's first SQL store revision: metrics without step and is_nan."""
    path = os.path.join(HERE, "sqlstore2019", "mlflow.db")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript("""
CREATE TABLE experiments (experiment_id INTEGER NOT NULL, name VARCHAR(256) NOT NULL,
  artifact_location VARCHAR(256), lifecycle_stage VARCHAR(32), PRIMARY KEY (experiment_id), UNIQUE (name));
CREATE TABLE runs (run_uuid VARCHAR(32) NOT NULL, name VARCHAR(250), source_type VARCHAR(20),
  source_name VARCHAR(500), entry_point_name VARCHAR(50), user_id VARCHAR(256), status VARCHAR(20),
  start_time BIGINT, end_time BIGINT, source_version VARCHAR(50), lifecycle_stage VARCHAR(20),
  artifact_uri VARCHAR(200), experiment_id INTEGER, PRIMARY KEY (run_uuid));
CREATE TABLE metrics (key VARCHAR(250) NOT NULL, value FLOAT NOT NULL, timestamp BIGINT NOT NULL,
  run_uuid VARCHAR(32) NOT NULL, PRIMARY KEY (key, timestamp, run_uuid));
CREATE TABLE params (key VARCHAR(250) NOT NULL, value VARCHAR(250) NOT NULL, run_uuid VARCHAR(32) NOT NULL,
  PRIMARY KEY (key, run_uuid));
CREATE TABLE tags (key VARCHAR(250) NOT NULL, value VARCHAR(250), run_uuid VARCHAR(32) NOT NULL,
  PRIMARY KEY (key, run_uuid));
""")
    db.execute("INSERT INTO experiments VALUES (0, 'Default', '/tmp/mlruns/0', 'active')")
    uuid, start, stop = "0b" * 16, T0 + 1000, T0 + 61000
    db.execute("INSERT INTO runs (run_uuid, name, status, start_time, end_time, lifecycle_stage, experiment_id) "
               "VALUES (?,?,?,?,?,?,?)", (uuid, "first", "FINISHED", start, stop, "active", 0))
    e.runs.append(("first", "Default", "success", start * 1000000, stop * 1000000, "active", "FINISHED"))
    db.execute("INSERT INTO params VALUES ('epochs', '3', ?)", (uuid,))
    e.params.append(("first", "epochs", "3", "number"))
    for ts, v in ((T0 + 2000, 0.5), (T0 + 3000, 0.25)):
        db.execute("INSERT INTO metrics VALUES ('loss', ?, ?, ?)", (v, ts, uuid))
        e.points.append(("first", "loss", 0, ts * 1000000, fmt(v)))
    db.commit()
    db.close()


def not_mlflow():
    path = os.path.join(HERE, "notmlflow", "mlflow.db")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE bookmarks (id INTEGER PRIMARY KEY, url TEXT, title TEXT);"
                     "CREATE TABLE runs (id INTEGER PRIMARY KEY, km REAL);"
                     "INSERT INTO bookmarks (url, title) VALUES ('https://example.org', 'example');")
    db.commit()
    db.close()


if __name__ == "__main__":
    e = Expect()
    file_store(e)
    e.save("filestore")
    e = Expect()
    file_store_v3(e)
    e.save("filestore3")
    e = Expect()
    sql_store(e)
    e.save("sqlstore")
    e = Expect()
    sql_store_2019(e)
    e.save("sqlstore2019")
    not_mlflow()
