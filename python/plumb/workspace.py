# SPDX-License-Identifier: GPL-3.0-or-later
"""A Plumb workspace from Python: SQL over its documented views (docs/sql.md) on a read-only connection,
and its analyses through the `plumb` command's JSON (docs/json.md)."""
import os
import sqlite3
import urllib.parse

from . import _cli
from ._frames import frame
from .results import DiffResult, DoctorResult

__all__ = ["Workspace", "import_files"]

_STEP_TIME_PARTS = ("compute_ns", "exposed_comm_ns", "exposed_memory_ns", "input_pipeline_ns",
                    "synchronization_ns", "runtime_ns", "other_cpu_ns", "idle_ns")
_GPU_FIELDS = ("gpu_ops", "total_ns", "busy_ns", "idle_ns", "compute_ns", "exposed_comm_ns",
               "exposed_memory_ns", "comm_ns", "memory_ns")


def _sql_text(value):
    return "'" + str(value).replace("'", "''") + "'"


class Workspace:
    """A workspace file (`.plumb`), for reading: nothing here writes to it (see plumb.import_files)."""

    def __init__(self, path):
        self.path = os.path.abspath(os.fspath(path))
        if not os.path.isfile(self.path):
            raise FileNotFoundError(f"no Plumb workspace at {self.path}")

    def __repr__(self):
        return f"Workspace({self.path!r})"

    # ---- SQL -------------------------------------------------------------------------------------------
    def connect(self):
        """A read-only SQLite connection to the workspace (a write raises sqlite3.OperationalError).

        The rule of Plumb's own readers (Workspace in core/store/workspace.cpp): SQLite reads the workspace's
        log when its -wal and -shm files exist or can be made beside it; in a folder this process may not
        write, with no log there, the file is whole by itself and is opened immutable (no lock, no -shm)."""
        folder = os.path.dirname(self.path)
        log_there = os.path.exists(self.path + "-wal") and os.path.exists(self.path + "-shm")
        mode = "mode=ro" if log_there or os.access(folder, os.W_OK) else "mode=ro&immutable=1"
        uri = "file:" + urllib.parse.quote(self.path) + "?" + mode
        return sqlite3.connect(uri, uri=True)

    def query(self, sql, params=()):
        """Runs one statement over the workspace's views (docs/sql.md), read-only: a DataFrame, or a list of
        dicts without pandas."""
        with self.connect() as con:
            cur = con.execute(sql, params)
            columns = [d[0] for d in cur.description or []]
            rows = [dict(zip(columns, r)) for r in cur.fetchall()]
        con.close()
        return frame(rows, columns)

    # ---- The plumb command -----------------------------------------------------------------------------
    def _json(self, args, schema):
        return _cli.run_json(args, self.path, schema)

    def ls(self):
        """`plumb ls --json` as parsed (`plumb.ls/1`)."""
        return self._json(["ls"], "plumb.ls/1")

    def traces(self):
        """Every trace, with its run: one row each (the fields of `plumb.ls/1`'s `runs[].traces[]`)."""
        rows = []
        for run in self.ls().get("runs", []):
            for t in run.get("traces", []):
                rows.append({"trace": t["id"], "run": run["id"], "run_name": run["name"], **t})
        columns = ["trace", "name", "run", "run_name", "rank", "world_size", "format", "device_type", "devices",
                   "duration_ns", "events", "slices", "kernels", "gpu_ops", "flows", "counters", "gpu_streams",
                   "source_id"]
        return frame(rows, columns)

    def runs(self):
        """Every run: id, name, its traces and what its experiment logs hold."""
        rows = []
        for run in self.ls().get("runs", []):
            logs = run.get("logs") or {}
            rows.append({"run": run["id"], "name": run["name"], "traces": len(run.get("traces", [])),
                         "path": logs.get("path"), "scalar_tags": logs.get("scalar_tags", 0),
                         "points": logs.get("points", 0), "params": logs.get("params", 0),
                         "status": logs.get("status")})
        return frame(rows, ["run", "name", "traces", "path", "scalar_tags", "points", "params", "status"])

    def _trace_id(self, trace):
        if isinstance(trace, int):
            return trace
        if isinstance(trace, str) and trace.isdigit():
            return int(trace)
        for run in self.ls().get("runs", []):
            for t in run.get("traces", []):
                if t["name"] == trace:
                    return t["id"]
        raise KeyError(f"no trace named {trace!r} in {self.path}")

    def doctor_json(self, traces=(), mode="every", critical_path=False):
        """`plumb doctor [TRACE...] --mode MODE --json` as parsed (`plumb.doctor/1`)."""
        args = ["doctor", *[self._trace_id(t) for t in traces], "--mode", mode]
        if critical_path:
            args.append("--critical-path")
        return self._json(args, "plumb.doctor/1")

    def doctor(self, trace, mode="every", critical_path=False):
        """Where a trace's time goes and what limits it: its `plumb.doctor/1` entry, whose `verdict` shows as
        a short HTML summary in Jupyter."""
        return DoctorResult(self.doctor_json([trace], mode, critical_path)["traces"][0])

    def diff(self, baseline, compared, mode="every"):
        """What changed from `baseline` to `compared` (`plumb.diff/1`); its headline shows in Jupyter."""
        return DiffResult(self._json(["diff", self._trace_id(baseline), self._trace_id(compared), "--mode", mode],
                                     "plumb.diff/1"))

    def steps(self, trace, mode="every"):
        """The trace's training steps: the doctor's per-step GPU window and step time (its eight parts as
        `step_time_*` columns), one row a step."""
        rows = []
        for s in self.doctor(trace, mode)["steps"]:
            row = {k: s.get(k) for k in ("step", "cpu_start_ns", "cpu_end_ns", "wall_ns", "verdict", *_GPU_FIELDS)}
            for part in _STEP_TIME_PARTS:
                row["step_time_" + part] = s.get("step_time", {}).get(part)
            rows.append(row)
        columns = ["step", "cpu_start_ns", "cpu_end_ns", "wall_ns", "verdict", *_GPU_FIELDS,
                   *["step_time_" + p for p in _STEP_TIME_PARTS]]
        return frame(rows, columns)

    def _query_json(self, sql):
        data = self._json(["query", sql], "plumb.query/1")
        return frame(data["rows"], data["columns"])

    def kernels(self, trace):
        """The trace's kernels by name, most time first: count, total, mean, min and max (ns)."""
        tid = self._trace_id(trace)
        return self._query_json(
            "SELECT name, count(*) AS count, sum(dur_ns) AS total_ns, avg(dur_ns) AS mean_ns, "
            "min(dur_ns) AS min_ns, max(dur_ns) AS max_ns FROM kernels "
            f"WHERE trace_id = {int(tid)} GROUP BY name ORDER BY total_ns DESC, name")

    def metrics(self, run):
        """Every scalar point of a run (id or name): the `metrics` view's rows, by key and step."""
        where = f"run_id = {int(run)}" if isinstance(run, int) else f"run_name = {_sql_text(run)}"
        return self._query_json(
            "SELECT run_id, run_name, key, segment, step, dup, wall_time_ns, value FROM metrics "
            f"WHERE {where} ORDER BY key, segment, step, dup")

    def memory(self, trace):
        """The trace's GPU memory (`plumb memory TRACE --json`, `plumb.memory/1`): per device the peak
        allocated and reserved bytes, when the peak was and the allocations live then."""
        return self._json(["memory", self._trace_id(trace)], "plumb.memory/1")


def import_files(workspace_path, paths, jobs=None):
    """Imports files and folders into the workspace (created when missing): `plumb import --json`'s files
    (`plumb.import/1`). Raises PlumbError when a file failed or none was recognised (its `result` holds the
    JSON)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    args = ["import", *[os.fspath(p) for p in paths]]
    if jobs:
        args += ["--jobs", int(jobs)]
    return _cli.run_json(args, os.path.abspath(os.fspath(workspace_path)), "plumb.import/1")["files"]
