# SPDX-License-Identifier: GPL-3.0-or-later
"""A drop-in for Holistic Trace Analysis (HTA) users: change

    from hta.trace_analysis import TraceAnalysis

into

    from plumb.hta.trace_analysis import TraceAnalysis     # or: from plumb.hta import TraceAnalysis

and the temporal, idle-time, GPU kernel and communication/computation overlap breakdowns come from Plumb's
`hta` mode, with HTA's signatures, return shapes and column names (HolisticTraceAnalysis at commit f4d0062c).
"""
from .trace_analysis import DEFAULT_TRACE_DIR, TraceAnalysis, cache_workspace_path

__all__ = ["TraceAnalysis", "DEFAULT_TRACE_DIR", "cache_workspace_path"]
