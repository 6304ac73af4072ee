# SPDX-License-Identifier: GPL-3.0-or-later
"""The offline install on Debian 12 (PEP 668: pip leaves the system Python alone):
python3 -m venv --system-site-packages .venv && .venv/bin/pip install --no-build-isolation ./python
with setuptools from Debian's python3-setuptools and no package index, in a temporary folder."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from tests.support import PACKAGE_ROOT


class OfflineInstallTest(unittest.TestCase):
    def test_venv_install_offline(self):
        try:
            import ensurepip  # noqa: F401  (Debian's python3-venv)
            import setuptools  # noqa: F401  (Debian's python3-setuptools)
        except ImportError as e:
            self.skipTest(f"{e.name} is missing: install python3-venv and python3-setuptools")
        with tempfile.TemporaryDirectory(prefix="plumb-venv-") as tmp:
            # A copy: pip builds in the source folder, which must stay clean.
            src = shutil.copytree(PACKAGE_ROOT, os.path.join(tmp, "python"),
                                  ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info", "tests",
                                                                "examples"))
            venv = os.path.join(tmp, ".venv")
            subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
            pip = os.path.join(venv, "bin", "pip")
            # No index at all: it has to work with what the system has.
            env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
            proc = subprocess.run([pip, "install", "--no-build-isolation", "--no-index", src],
                                  capture_output=True, text=True, env=env, cwd=tmp)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            python = os.path.join(venv, "bin", "python")
            check = subprocess.run(
                [python, "-c", "import plumb, plumb.hta, plumb.hta.trace_analysis as t; "
                               "print(plumb.__file__); print(t.TraceAnalysis.get_temporal_breakdown.__name__)"],
                capture_output=True, text=True, cwd=tmp, env=dict(os.environ, PYTHONPATH=""))
            self.assertEqual(check.returncode, 0, check.stderr)
            self.assertTrue(check.stdout.startswith(venv), check.stdout)
            self.assertIn("get_temporal_breakdown", check.stdout)


if __name__ == "__main__":
    unittest.main()
