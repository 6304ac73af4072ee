# SPDX-License-Identifier: GPL-3.0-or-later
"""The package without pandas: tables are lists of dicts. pandas is blocked in a child interpreter (its import
raises ImportError, as where it is not installed)."""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

from tests.support import KINETO, PACKAGE_ROOT, need_plumb, need_shared_data

CHILD = textwrap.dedent("""
    import sys

    class NoPandas:
        def find_spec(self, name, path=None, target=None):
            if name == "pandas" or name.startswith("pandas."):
                raise ImportError("pandas blocked by the test")

    sys.meta_path.insert(0, NoPandas())
    sys.modules.pop("pandas", None)
    import os
    import plumb
    from plumb.hta import TraceAnalysis

    ws_path, trace_dir, trace = sys.argv[1:4]
    files = plumb.import_files(ws_path, [trace])
    assert files[0]["status"] == "imported", files
    ws = plumb.Workspace(ws_path)
    rows = ws.query("SELECT trace_id, name FROM traces")
    assert rows == [{"trace_id": 1, "name": os.path.basename(trace)}], rows
    traces = ws.traces()
    assert isinstance(traces, list) and traces[0]["trace"] == 1, traces
    steps = ws.steps(1)
    assert isinstance(steps, list) and all(isinstance(s, dict) for s in steps)
    assert isinstance(ws.kernels(1), list) and ws.kernels(1)[0]["count"] > 0
    assert "<b>" in ws.doctor(1).verdict._repr_html_()

    a = TraceAnalysis(trace_dir=trace_dir)
    t = a.get_temporal_breakdown(visualize=False)
    assert isinstance(t, list) and set(t[0]) >= {"rank", "idle_time_pctg"}, t
    idle, stats = a.get_idle_time_breakdown(visualize=False)
    assert isinstance(idle, list) and stats is None
    types, kernels = a.get_gpu_kernel_breakdown(visualize=False)
    assert isinstance(types, list) and isinstance(kernels, list) and kernels
    overlap = a.get_comm_comp_overlap(visualize=False)
    assert overlap[0]["rank"] == t[0]["rank"]
    try:
        import pandas  # noqa: F401
    except ImportError:
        print("no pandas: all good")
""")


class NoPandasTest(unittest.TestCase):
    def test_without_pandas(self):
        need_plumb()
        need_shared_data("traces/kineto/hta_nccl_data.json.gz")
        with tempfile.TemporaryDirectory(prefix="plumb-nopandas-") as tmp:
            trace_dir = os.path.join(tmp, "traces")
            os.mkdir(trace_dir)
            os.symlink(os.path.join(KINETO, "hta_nccl_data.json.gz"), os.path.join(trace_dir, "rank0.json.gz"))
            env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
            proc = subprocess.run([sys.executable, "-c", CHILD, os.path.join(tmp, "w.plumb"), trace_dir,
                                   os.path.join(KINETO, "hta_nccl_data.json.gz")],
                                  capture_output=True, text=True, env=env)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            self.assertIn("no pandas: all good", proc.stdout)


if __name__ == "__main__":
    unittest.main()
