#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""plumb query and the public SQL views (docs/sql.md), end to end through the real binary.

  query_test.py docs --plumb BIN --docs docs/sql.md --fixture FILE
      imports FILE into a fresh workspace; every view there is documented in docs/sql.md with exactly the
      columns PRAGMA table_info gives, in order (and the declared type, where SQLite knows one), every
      documented view exists, and every example query of the page runs
  query_test.py cli --plumb BIN --data SHARED_DATA
      over real files of ../shared/data: the views' counts agree with plumb ls; CSV quoting, JSON output,
      an empty result, an SQL error with SQLite's message, and every kind of refused statement (exit 2),
      the workspace's bytes unchanged after them. Exit 77 (skipped) when the shared data folder is absent.
"""
import argparse
import csv
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile

SKIP = 77
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what)


def plumb(binary, workspace, *args, raw=False):
    """Runs plumb; raw: stdout as it is (CR LF kept), else as text."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.pop("PLUMB_WORKSPACE", None)
    r = subprocess.run([binary, *args, "--workspace", workspace], capture_output=True, env=env, timeout=300)
    out = r.stdout.decode("utf-8")
    if not raw:
        out = out.replace("\r\n", "\n")
    return subprocess.CompletedProcess(r.args, r.returncode, out, r.stderr.decode("utf-8"))


def query_json(binary, workspace, sql):
    r = plumb(binary, workspace, "query", "--json", sql)
    if r.returncode != 0:
        raise RuntimeError(f"plumb query {sql!r} failed ({r.returncode}): {r.stderr}")
    return json.loads(r.stdout)


def documented_views(path):
    """{view: [(column, type)]} from the page's tables, in order."""
    views, current = {}, None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^## `([a-z_0-9]+)`", line)
        if m:
            current = m.group(1)
            views[current] = []
            continue
        if line.startswith("## "):
            current = None
            continue
        m = re.match(r"^\| `([a-z_0-9]+)` \| ([A-Z]+) \| .+ \|$", line.rstrip("\n"))
        if m and current:
            views[current].append((m.group(1), m.group(2)))
    return views


def run_docs(args):
    with tempfile.TemporaryDirectory(prefix="plumb-sql-") as tmp:
        ws = os.path.join(tmp, "fresh.plumb")
        r = plumb(args.plumb, ws, "import", args.fixture)
        if r.returncode != 0:
            print(r.stdout + r.stderr)
            return 1
        doc = documented_views(args.docs)
        check(len(doc) >= 13, f"docs/sql.md documents {len(doc)} views")
        actual = [row["name"] for row in query_json(
            args.plumb, ws, "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")["rows"]]
        for view in actual:
            check(view in doc, f"view {view} is not documented in docs/sql.md")
        for view, columns in doc.items():
            if view not in actual:
                check(False, f"docs/sql.md documents {view}, which the workspace has not")
                continue
            info = query_json(args.plumb, ws, f"PRAGMA table_info({view})")["rows"]
            names = [c["name"] for c in info]
            documented = [c for c, _ in columns]
            for c in names:
                check(c in documented, f"{view}.{c} is not documented")
            for c in documented:
                check(c in names, f"{view}.{c} is documented but the view has no such column")
            check(names == documented or set(names) != set(documented),
                  f"{view}: the columns are documented in another order than the view's ({', '.join(names)})")
            types = dict(columns)
            for c in info:
                if c["type"] and c["name"] in types:
                    check(c["type"] == types[c["name"]],
                          f"{view}.{c['name']}: documented as {types[c['name']]}, declared {c['type']}")
        text = open(args.docs, encoding="utf-8").read()
        examples = re.findall(r"```sql\n(.*?)```", text, re.S)
        check(len(examples) >= 3, "docs/sql.md has fewer than three example queries")
        for sql in examples:
            r = plumb(args.plumb, ws, "query", "--csv", sql)
            check(r.returncode == 0, f"the example fails: {sql.strip()}\n{r.stderr}")
    if failures:
        return 1
    print("sql views docs test passed")
    return 0


def digest(path):
    h = hashlib.sha256()
    for suffix in ("", "-wal"):
        if os.path.exists(path + suffix):
            with open(path + suffix, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def run_cli(args):
    files = ["traces/nsys/cloverleaf_nsys2024.5.sqlite", "traces/kineto/hta_nccl_data.json.gz",
             "traces/xplane/tf_gpu_multi_worker.xplane.pb", "tfevents/shapeaxi_lightning_hparams/version_0",
             "lineage/openlineage/example_full_event.json"]
    paths = [os.path.join(args.data, f) for f in files]
    if not all(os.path.exists(p) for p in paths):
        print(f"SKIP: no shared data at {args.data}")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="plumb-query-") as tmp:
        ws = os.path.join(tmp, "q.plumb")
        r = plumb(args.plumb, ws, "import", *paths)
        if r.returncode != 0:
            print(r.stdout + r.stderr)
            return 1
        ls = json.loads(plumb(args.plumb, ws, "ls", "--json").stdout)
        one = lambda sql: query_json(args.plumb, ws, sql)["rows"][0]["n"]
        traces = [t for run in ls["runs"] for t in run.get("traces", [])]
        check(len(traces) == 3, f"{len(traces)} traces imported")

        # The views agree with plumb ls, trace by trace (the Nsight export has 1,312 kernels).
        for t in traces:
            tid = t["id"]
            where = f"WHERE trace_id = {tid}"
            check(one(f"SELECT count(*) AS n FROM kernels {where}") == t["kernels"], f"trace {tid}: kernels")
            check(one(f"SELECT count(*) AS n FROM gpu_ops {where}") == t["gpu_ops"], f"trace {tid}: gpu_ops")
            check(one(f"SELECT count(*) AS n FROM flows {where}") == t["flows"], f"trace {tid}: flows")
            check(one(f"SELECT count(*) AS n FROM slices {where}") == t["slices"], f"trace {tid}: slices")
            check(one(f"SELECT count(*) AS n FROM counters {where}") == t["counters"], f"trace {tid}: counters")
            check(one(f"SELECT kernel_count AS n FROM traces {where}") == t["kernels"], f"trace {tid}: traces")
        nsys = one("SELECT trace_id AS n FROM traces WHERE format = 'nsys'")
        check(one(f"SELECT count(*) AS n FROM kernels WHERE trace_id = {nsys}") == 1312, "Nsight: 1,312 kernels")
        check(one("SELECT count(*) AS n FROM kernels WHERE dur_ns <= 0 OR end_ns != ts_ns + dur_ns") == 0,
              "kernels: durations")
        # Kineto: the ProfilerSteps; XPlane: its Steps line.
        kineto = one("SELECT trace_id AS n FROM traces WHERE name = 'hta_nccl_data.json.gz'")
        steps = query_json(args.plumb, ws, f"SELECT step, name FROM steps WHERE trace_id = {kineto} ORDER BY step")
        check(len(steps["rows"]) > 0 and all(s["name"] == f"ProfilerStep#{s['step']}" for s in steps["rows"]),
              f"steps of the Kineto trace: {steps['rows']}")
        check(one("SELECT count(*) AS n FROM steps WHERE origin = 'steps_line'") > 0, "steps of XPlane")
        check(one("SELECT count(*) AS n FROM gpu_ops WHERE kind IN ('memcpy', 'memset') AND bytes IS NULL") == 0,
              "memcpy and memset bytes")
        check(one("SELECT count(*) AS n FROM runs") == len(ls["runs"]), "runs")
        for view in ("metrics", "params", "lineage_nodes", "lineage_edges", "diagnostics"):
            check(one(f"SELECT count(*) AS n FROM {view}") > 0, f"{view} is empty")
        check(one("SELECT count(*) AS n FROM lineage_edges e JOIN lineage_nodes n ON n.node_id = e.from_node_id")
              == one("SELECT count(*) AS n FROM lineage_edges"), "lineage edges join their nodes")

        # CSV per RFC 4180: a header, fields with a comma, quote, CR or LF quoted, CRLF line ends.
        r = plumb(args.plumb, ws, "query", "--csv",
                  "SELECT 'a,b' AS comma, 'say \"hi\"' AS quote, 'two' || char(10) || 'lines' AS lf, "
                  "'cr' || char(13) AS cr, NULL AS empty, 42 AS n, 0.5 AS x, 'plain' AS plain", raw=True)
        check(r.returncode == 0, "csv: " + r.stderr)
        check(r.stdout == 'comma,quote,lf,cr,empty,n,x,plain\r\n"a,b","say ""hi""","two\nlines","cr\r",,42,0.5,plain\r\n',
              "csv quoting: " + repr(r.stdout))
        rows = list(csv.reader(io.StringIO(r.stdout, newline="")))
        check(rows[1] == ["a,b", 'say "hi"', "two\nlines", "cr\r", "", "42", "0.5", "plain"], f"csv reads back: {rows}")
        r = plumb(args.plumb, ws, "query", "--csv", f"SELECT name, dur_ns FROM kernels WHERE trace_id = {nsys}", raw=True)
        check(len(list(csv.reader(io.StringIO(r.stdout, newline="")))) == 1313, "csv of the Nsight kernels")

        # JSON, and an empty result.
        j = query_json(args.plumb, ws, "SELECT trace_id, kind, count(*) AS n FROM gpu_ops GROUP BY 1, 2 ORDER BY 1, 2")
        check(j["schema"] == "plumb.query/1" and j["columns"] == ["trace_id", "kind", "n"], f"json: {j}")
        check(sum(row["n"] for row in j["rows"]) == sum(t["gpu_ops"] for t in traces), "json rows")
        j = query_json(args.plumb, ws, "SELECT name FROM kernels WHERE 0")
        check(j["columns"] == ["name"] and j["rows"] == [], f"empty json: {j}")
        r = plumb(args.plumb, ws, "query", "--csv", "SELECT name, ts_ns FROM kernels WHERE 0", raw=True)
        check(r.returncode == 0 and r.stdout == "name,ts_ns\r\n", "empty csv: " + repr(r.stdout))
        r = plumb(args.plumb, ws, "query", "SELECT name FROM kernels WHERE 0")
        check(r.returncode == 0 and "(0 rows)" in r.stdout, "empty table: " + repr(r.stdout))
        r = plumb(args.plumb, ws, "query", "SELECT 1 AS one, 'x' AS two")
        check(r.stdout == "one  two\n---  ---\n  1  x\n(1 row)\n", "table: " + repr(r.stdout))
        r = plumb(args.plumb, ws, "query", "PRAGMA table_info(kernels)")
        check(r.returncode == 0 and "correlation" in r.stdout, "reading PRAGMA table_info")

        # Refused statements and SQL errors: exit 2, SQLite's reason, the workspace unchanged.
        before = digest(ws)
        refused = {
            "INSERT INTO run(key, name, created_at_ns) VALUES ('k', 'n', 0)": "INSERT into run",
            "UPDATE run SET name = 'x'": "UPDATE of run",
            "DELETE FROM slice": "DELETE from slice",
            "CREATE TABLE t(x)": "changes the schema",
            "CREATE TEMP TABLE t(x)": "changes the schema",
            "CREATE VIEW v AS SELECT 1": "changes the schema",
            "DROP VIEW kernels": "changes the schema",
            "DROP TABLE slice": "changes the schema",
            "ALTER TABLE run ADD COLUMN x": "changes the schema",
            f"ATTACH '{tmp}/other.db' AS other": "ATTACH",
            "DETACH main": "DETACH",
            "PRAGMA user_version = 7": "changes a setting",
            "PRAGMA journal_mode = DELETE": "changes a setting",
            "PRAGMA writable_schema = 1": "PRAGMA writable_schema",
            "PRAGMA wal_checkpoint(TRUNCATE)": "PRAGMA wal_checkpoint",
            "SELECT load_extension('libevil')": "load_extension",
            "BEGIN IMMEDIATE": "transactions",
            "VACUUM": "refused",
            "REINDEX": "changes the schema",
            "ANALYZE": "changes the schema",
        }
        for sql, reason in refused.items():
            r = plumb(args.plumb, ws, "query", sql)
            check(r.returncode == 2 and "refused" in r.stderr and reason in r.stderr and sql in r.stderr,
                  f"{sql}: exit {r.returncode}, {r.stderr.strip()!r} (expected refused ... {reason})")
            check(r.stdout == "", f"{sql}: printed {r.stdout!r}")
        errors = {
            "SELEC name FROM kernels": 'near "SELEC": syntax error',
            "SELECT * FROM no_such_view": "no such table: no_such_view",
            "SELECT nope FROM kernels": "no such column: nope",
            "SELECT 1; SELECT 2": "one statement at a time",
            "SELECT abs(-9223372036854775807 - 1)": "integer overflow",
        }
        for sql, message in errors.items():
            r = plumb(args.plumb, ws, "query", sql)
            check(r.returncode == 2 and message in r.stderr, f"{sql}: exit {r.returncode}, {r.stderr.strip()!r}")
        check(digest(ws) == before, "the workspace changed under refused statements")
        r = plumb(args.plumb, ws, "query", "--csv", "--json", "SELECT 1")
        check(r.returncode == 2 and "exclude each other" in r.stderr, "--csv with --json")
        r = plumb(args.plumb, ws, "query")
        check(r.returncode == 2 and "needs an SQL statement" in r.stderr, "no statement")
        r = plumb(args.plumb, ws + ".missing", "query", "SELECT 1")
        check(r.returncode == 1 and "no workspace" in r.stderr, "missing workspace")
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("query test passed")
    return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["docs", "cli"])
    p.add_argument("--plumb", required=True)
    p.add_argument("--docs")
    p.add_argument("--fixture")
    p.add_argument("--data")
    args = p.parse_args()
    return run_docs(args) if args.mode == "docs" else run_cli(args)


if __name__ == "__main__":
    sys.exit(main())
