# SPDX-License-Identifier: GPL-3.0-or-later
"""plumb.Workspace and plumb.import_files on real files of ../shared/data."""
import os
import sqlite3
import tempfile
import unittest

import plumb
from tests.support import SHARED_DATA, need_pandas, need_plumb, need_shared_data


class WorkspaceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        need_shared_data("traces/kineto/hta_trace_diff_control.json.gz", "tfevents/reducer_strict")
        need_plumb()
        need_pandas()
        cls.tmp = tempfile.TemporaryDirectory(prefix="plumb-py-")
        cls.path = os.path.join(cls.tmp.name, "w.plumb")
        cls.files = plumb.import_files(cls.path, [
            os.path.join(SHARED_DATA, "traces/kineto/hta_trace_diff_control.json.gz"),
            os.path.join(SHARED_DATA, "traces/kineto/hta_trace_diff_test.json.gz"),
            os.path.join(SHARED_DATA, "tfevents/reducer_strict/run_1"),
        ])
        cls.ws = plumb.Workspace(cls.path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_import_files(self):
        self.assertEqual([f["status"] for f in self.files], ["imported"] * len(self.files))
        self.assertEqual(self.files[0]["format"], "chrometrace")
        # The same bytes again: nothing done, and it says so.
        again = plumb.import_files(self.path, os.path.join(SHARED_DATA, "traces/kineto/hta_trace_diff_test.json.gz"))
        self.assertEqual(again[0]["status"], "already imported")

    def test_query(self):
        df = self.ws.query("SELECT trace_id, name, kernel_count FROM traces ORDER BY trace_id")
        self.assertEqual(list(df.columns), ["trace_id", "name", "kernel_count"])
        self.assertEqual(list(df["name"]), ["hta_trace_diff_control.json.gz", "hta_trace_diff_test.json.gz"])
        self.assertTrue((df["kernel_count"] > 0).all())
        # The connection is read-only: a write is refused and changes nothing.
        with self.assertRaises(sqlite3.OperationalError):
            self.ws.query("CREATE TABLE t(x)")
        self.assertEqual(len(self.ws.query("SELECT name FROM sqlite_master WHERE name = 't'")), 0)
        # Parameters are bound.
        one = self.ws.query("SELECT name FROM traces WHERE trace_id = ?", (2,))
        self.assertEqual(one["name"][0], "hta_trace_diff_test.json.gz")

    def test_traces_and_runs(self):
        traces = self.ws.traces()
        self.assertEqual(list(traces["trace"]), [1, 2])
        kernels = self.ws.query("SELECT trace_id, kernel_count FROM traces ORDER BY trace_id")
        self.assertEqual(list(traces["kernels"]), list(kernels["kernel_count"]))
        self.assertEqual(list(traces["rank"]), [3, 1])  # the files' distributedInfo
        runs = self.ws.runs()
        self.assertIn("reducer_strict/run_1", list(runs["name"]))
        self.assertEqual(int(runs[runs["name"] == "reducer_strict/run_1"]["points"].iloc[0]), 100)  # strict/foo x100

    def test_doctor(self):
        d = self.ws.doctor(1)
        self.assertEqual(d["trace"], 1)
        self.assertEqual(d["total_ns"], d["busy_ns"] + d["idle_ns"])
        self.assertTrue(d.verdict.component)
        self.assertIsInstance(d.verdict, plumb.Verdict)
        html = d.verdict._repr_html_()
        self.assertIn(d.verdict.component, html)
        self.assertIn("<b>", html)
        self.assertIn(d.verdict.component, d._repr_html_())
        # By name as well as by id; hta mode as the HTA module reads it.
        self.assertEqual(self.ws.doctor("hta_trace_diff_control.json.gz")["trace"], 1)
        self.assertEqual(self.ws.doctor(1, mode="hta")["mode"], "hta")

    def test_diff(self):
        diff = self.ws.diff(1, 2)
        self.assertEqual(diff["schema"], "plumb.diff/1")
        self.assertEqual(diff["baseline"]["trace"], 1)
        self.assertTrue(diff.headline)
        self.assertIn("plumb-diff", diff._repr_html_())

    def test_steps(self):
        steps = self.ws.steps(1)
        view = self.ws.query("SELECT step FROM steps WHERE trace_id = 1 ORDER BY step")
        self.assertEqual(list(steps["step"]), list(view["step"]))
        parts = [c for c in steps.columns if c.startswith("step_time_")]
        self.assertEqual(len(parts), 8)
        self.assertTrue((steps[parts].sum(axis=1) == steps["wall_ns"]).all())

    def test_kernels(self):
        k = self.ws.kernels(2)
        view = self.ws.query("SELECT count(*) AS n, sum(dur_ns) AS total FROM kernels WHERE trace_id = 2")
        self.assertEqual(int(k["count"].sum()), int(view["n"][0]))
        self.assertEqual(int(k["total_ns"].sum()), int(view["total"][0]))
        self.assertTrue(k["total_ns"].is_monotonic_decreasing)

    def test_metrics(self):
        m = self.ws.metrics("reducer_strict/run_1")
        self.assertEqual(len(m), 100)
        self.assertEqual(set(m["key"]), {"strict/foo"})
        run_id = int(m["run_id"][0])
        self.assertEqual(len(self.ws.metrics(run_id)), 100)

    def test_memory(self):
        need_shared_data("traces/kineto/tracelens_h100_qwen.json.gz")
        path = os.path.join(self.tmp.name, "memory.plumb")
        plumb.import_files(path, [os.path.join(SHARED_DATA, "traces/kineto/tracelens_h100_qwen.json.gz")])
        try:
            mem = plumb.Workspace(path).memory(1)
        except plumb.UnknownCommandError as e:
            self.skipTest(f"this plumb has no `memory` command yet ({e.message.splitlines()[0]})")
        self.assertEqual(mem["schema"], "plumb.memory/1")

        def devices(value):  # every object with a device's peak, wherever plumb.memory/1 puts them
            if isinstance(value, dict):
                if "peak_allocated_bytes" in value:
                    yield value
                for v in value.values():
                    yield from devices(v)
            elif isinstance(value, list):
                for v in value:
                    yield from devices(v)

        found = list(devices(mem))
        self.assertTrue(found, mem)
        for d in found:
            self.assertGreaterEqual(d["peak_reserved_bytes"], d["peak_allocated_bytes"])
            self.assertIn("peak_ns", d)
        # SOURCES.md: its largest `Total Allocated` is 2,088,508,416 bytes.
        self.assertEqual(max(d["peak_allocated_bytes"] for d in found), 2088508416)

    def test_errors_are_exceptions(self):
        with self.assertRaises(plumb.PlumbError) as cm:
            self.ws.doctor(999)
        self.assertEqual(cm.exception.returncode, 1)
        self.assertIn("no trace 999", cm.exception.message)
        with self.assertRaises(plumb.PlumbError) as cm:
            self.ws._query_json("DELETE FROM slices")
        self.assertEqual(cm.exception.returncode, 2)
        with self.assertRaises(KeyError):
            self.ws.doctor("no such trace")
        with self.assertRaises(FileNotFoundError):
            plumb.Workspace(os.path.join(self.tmp.name, "absent.plumb"))
        # A file no importer claims: exit status 1, and the JSON that says why comes with the exception.
        with self.assertRaises(plumb.PlumbError) as cm:
            plumb.import_files(os.path.join(self.tmp.name, "other.plumb"), [os.path.join(SHARED_DATA, "SOURCES.md")])
        self.assertEqual(cm.exception.returncode, 1)
        self.assertEqual(cm.exception.result["files"][0]["status"], "not recognised")

    def test_plumb_executable(self):
        old = os.environ.get("PLUMB")
        try:
            os.environ["PLUMB"] = os.path.join(self.tmp.name, "no-such-plumb")
            with self.assertRaises(FileNotFoundError):
                self.ws.traces()
        finally:
            if old is None:
                os.environ.pop("PLUMB")
            else:
                os.environ["PLUMB"] = old


if __name__ == "__main__":
    unittest.main()
