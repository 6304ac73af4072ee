# SPDX-License-Identifier: GPL-3.0-or-later
"""python/examples/hta_tutorial.ipynb, Holistic Trace Analysis's tutorial flow with the import line changed, run
top to bottom by jupyter nbconvert --execute on Plumb's sample trace."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from tests.support import PACKAGE_ROOT, REPO, need_plumb

NOTEBOOK = os.path.join(PACKAGE_ROOT, "examples", "hta_tutorial.ipynb")
SAMPLE = os.path.join(REPO, "resources", "samples", "sample_training_step.pt.trace.json.gz")


class NotebookTest(unittest.TestCase):
    def test_tutorial_runs(self):
        need_plumb()
        nbconvert = shutil.which("jupyter-nbconvert")
        if not nbconvert:
            self.skipTest("jupyter-nbconvert is not installed (Debian: jupyter-nbconvert, python3-ipykernel)")
        with tempfile.TemporaryDirectory(prefix="plumb-nb-") as tmp:
            traces = os.path.join(tmp, "traces")
            os.mkdir(traces)
            os.symlink(SAMPLE, os.path.join(traces, os.path.basename(SAMPLE)))
            env = dict(os.environ, HTA_TRACE_DIR=traces,
                       PYTHONPATH=os.pathsep.join(p for p in (PACKAGE_ROOT, os.environ.get("PYTHONPATH")) if p))
            out = os.path.join(tmp, "executed.ipynb")
            proc = subprocess.run([nbconvert, "--to", "notebook", "--execute", "--output", out, NOTEBOOK],
                                  capture_output=True, text=True, env=env, cwd=tmp, timeout=600)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            with open(out) as f:
                nb = json.load(f)
            code = [c for c in nb["cells"] if c["cell_type"] == "code"]
            self.assertTrue(all(c["execution_count"] for c in code))
            self.assertFalse([o for c in code for o in c["outputs"] if o.get("output_type") == "error"])
            # The frames were shown: the temporal breakdown's columns are in the output.
            shown = json.dumps([c["outputs"] for c in code])
            self.assertIn("idle_time_pctg", shown)
            self.assertIn("comp_comm_overlap_pctg", shown)
            # The cache workspace sits beside the traces.
            self.assertTrue(os.listdir(os.path.join(traces, ".plumb-hta")))


if __name__ == "__main__":
    unittest.main()
