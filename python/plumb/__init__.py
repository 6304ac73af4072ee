# SPDX-License-Identifier: GPL-3.0-or-later
"""Plumb from Python and notebooks.

    import plumb
    ws = plumb.Workspace("job.plumb")
    ws.query("SELECT name, sum(dur_ns) FROM kernels GROUP BY name")   # SQL over the documented views
    ws.doctor(1).verdict                                               # shows as HTML in Jupyter

plumb.hta.TraceAnalysis is a drop-in for Holistic Trace Analysis's TraceAnalysis.
"""
from ._cli import PlumbError, UnknownCommandError, plumb_executable
from .results import DiffResult, DoctorResult, Verdict
from .workspace import Workspace, import_files

__all__ = ["Workspace", "import_files", "PlumbError", "UnknownCommandError", "Verdict", "DoctorResult",
           "DiffResult", "plumb_executable"]
__version__ = "0.1.0"
