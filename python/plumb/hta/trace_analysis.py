# SPDX-License-Identifier: GPL-3.0-or-later
"""HTA's TraceAnalysis over Plumb.

The traces of `trace_dir` are imported once into a cache workspace, `.plumb-hta/<key>.plumb` beside them when
that folder is writable, else `$XDG_CACHE_HOME/plumb/hta/` (`~/.cache/plumb/hta/`). The key is made of the
traces' names, sizes and modification times: the same files load the cached workspace again, a changed or
added file imports anew (and the folder's older cache workspaces are removed). The doctor's JSON is kept
beside the workspace (`<key>.doctor-hta.json`) for the next load while the plumb command is the same. Every figure comes from
`plumb doctor --mode hta --json`: HTA's filtering (the last profiler step dropped, GPU work not linked to a
kept CPU op left out) and its kernel-name classes; times are in microseconds as HTA gives them.
"""
import hashlib
import json
import math
import os
import tempfile
import warnings

from .. import _cli
from .._frames import frame

__all__ = ["TraceAnalysis", "DEFAULT_TRACE_DIR", "cache_workspace_path"]

DEFAULT_TRACE_DIR = "traces"  # HTA's hta.configs.default_values.DEFAULT_TRACE_DIR
_TRACE_SUFFIXES = (".json", ".json.gz")
_KINDS = ("COMPUTATION", "COMMUNICATION", "MEMORY")
_plot_warned = False


def _trace_files_in(trace_dir):
    names = sorted(n for n in os.listdir(trace_dir)
                   if n.endswith(_TRACE_SUFFIXES) and os.path.isfile(os.path.join(trace_dir, n)))
    if not names:
        raise ValueError(f"no trace files (*.json, *.json.gz) in {trace_dir}")
    return [os.path.join(trace_dir, n) for n in names]


def _cache_key(files):
    h = hashlib.sha256()
    for f in sorted(files):
        st = os.stat(f)
        h.update(f"{os.path.basename(f)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:24]


def _user_cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "plumb", "hta")


def cache_workspace_path(trace_dir, files=None):
    """Where TraceAnalysis keeps the workspace of these traces: (folder, file name, prefix of the folder's
    cache files)."""
    trace_dir = os.path.abspath(trace_dir)
    files = files or _trace_files_in(trace_dir)
    key = _cache_key(files)
    beside = os.path.join(trace_dir, ".plumb-hta")
    if os.access(trace_dir, os.W_OK) and (not os.path.exists(beside) or os.access(beside, os.W_OK)):
        return beside, f"{key}.plumb", ""
    # In the user's cache folder the file names also say which folder they are for.
    folder = hashlib.sha256(trace_dir.encode()).hexdigest()[:16]
    return _user_cache_dir(), f"{folder}-{key}.plumb", f"{folder}-"


def _warn_no_plot():
    global _plot_warned
    if not _plot_warned:
        _plot_warned = True
        warnings.warn("plotly (with pandas) is not installed: visualize=True draws nothing and returns the data "
                      "(install python3-plotly, or pass visualize=False)", stacklevel=4)


def _plotly():
    try:
        import pandas  # noqa: F401  (plotly.express draws from DataFrames)
        import plotly.express as px
        import plotly.graph_objects as go
        from plotly.subplots import make_subplots
    except ImportError:
        _warn_no_plot()
        return None
    return px, go, make_subplots


def _df(rows):
    import pandas as pd

    return pd.DataFrame(rows)


def _quantile(sorted_values, q):
    """pandas' default (linear) quantile of ascending values."""
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def _stats(values):
    n = len(values)
    mean = sum(values) / n
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return {"sum": sum(values), "max": max(values), "min": min(values), "mean": mean, "std": std}


class TraceAnalysis:
    """Holistic Trace Analysis's TraceAnalysis, computed by Plumb (see the module's comment)."""

    def __init__(self, trace_files=None, trace_dir=DEFAULT_TRACE_DIR, include_last_profiler_step=False):
        if include_last_profiler_step:
            raise NotImplementedError("Plumb's hta mode drops the last profiler step as HTA does by default; "
                                      "include_last_profiler_step=True is not offered")
        if trace_files:
            self._files = {int(r): os.path.abspath(os.path.join(trace_dir, f) if not os.path.isabs(f) else f)
                           for r, f in trace_files.items()}
            files = sorted(self._files.values())
            where = os.path.dirname(files[0])
        else:
            files = _trace_files_in(trace_dir)
            self._files = None
            where = trace_dir
        self.trace_dir = os.path.abspath(where)
        folder, name, prefix = cache_workspace_path(self.trace_dir, files)
        self.workspace = os.path.join(folder, name)
        if not os.path.isfile(self.workspace):
            self._import(files, folder, name, prefix)
        self._load()

    # ---- Loading ---------------------------------------------------------------------------------------
    def _import(self, files, folder, name, prefix):
        os.makedirs(folder, exist_ok=True)
        # Imported under a temporary name and renamed when complete: an interrupted import is never reused.
        fd, tmp = tempfile.mkstemp(prefix=".importing-", suffix=".plumb", dir=folder)
        os.close(fd)
        os.unlink(tmp)
        try:
            _cli.run_json(["import", *files], tmp, "plumb.import/1")
            final = os.path.join(folder, name)
            for suffix in ("-wal", "-shm"):  # normally checkpointed away when plumb closed it
                if os.path.exists(tmp + suffix):
                    os.replace(tmp + suffix, final + suffix)
            os.replace(tmp, final)
        finally:
            for f in (tmp, tmp + "-wal", tmp + "-shm"):
                if os.path.exists(f):
                    os.unlink(f)
        stem = name[: -len(".plumb")]
        for old in os.listdir(folder):
            if old.startswith(prefix) and not old.startswith(stem) and not old.startswith("."):
                if old.endswith((".plumb", ".doctor-hta.json")) and (prefix or len(old.split(".")[0]) == len(stem)):
                    os.unlink(os.path.join(folder, old))

    def _load(self):
        ls = _cli.run_json(["ls"], self.workspace, "plumb.ls/1")
        traces = [t for run in ls.get("runs", []) for t in run.get("traces", [])]
        sources = {s["id"]: os.path.abspath(s["path"]) for s in ls.get("sources", [])}
        by_path = {p: r for r, p in self._files.items()} if self._files else {}
        self._rank_of = {}
        for i, t in enumerate(sorted(traces, key=lambda t: t["id"])):
            path = sources.get(t.get("source_id"))
            rank = by_path.get(path, t.get("rank", i if len(traces) > 1 else 0))
            if rank in self._rank_of.values():
                raise ValueError(f"two traces of {self.trace_dir} are rank {rank} (the second: {t['name']}): "
                                 "name each rank's file with trace_files={rank: file}")
            self._rank_of[t["id"]] = rank
        doctor = self._doctor(sorted(self._rank_of))
        self._ranks = {self._rank_of[t["trace"]]: t for t in doctor["traces"]}

    def _doctor(self, trace_ids):
        """`plumb doctor --mode hta --json` of the traces, kept beside the workspace for the next load (the
        hta mode computes from the events: seconds on a large trace). The copy is keyed by the plumb command
        (its path, size and mtime) and the traces: another plumb computes it again."""
        exe = _cli.plumb_executable()
        st = os.stat(exe)
        key = hashlib.sha256(f"{os.path.realpath(exe)}\0{st.st_size}\0{st.st_mtime_ns}\0{trace_ids}".encode())
        kept = os.path.splitext(self.workspace)[0] + ".doctor-hta.json"
        try:
            with open(kept, encoding="utf-8") as f:
                data = json.load(f)
            if data.get("key") == key.hexdigest():
                return data["doctor"]
        except (OSError, ValueError, KeyError):
            pass
        doctor = _cli.run_json(["doctor", *trace_ids, "--mode", "hta"], self.workspace, "plumb.doctor/1")
        try:
            fd, tmp = tempfile.mkstemp(prefix=".doctor-", suffix=".json", dir=os.path.dirname(kept))
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"key": key.hexdigest(), "doctor": doctor}, f)
            os.replace(tmp, kept)
        except OSError:
            pass  # a cache: without it the next load computes again
        return doctor

    def _sorted_ranks(self):
        return sorted(self._ranks)

    # ---- HTA's API -------------------------------------------------------------------------------------
    def get_temporal_breakdown(self, visualize=True):
        """Idle, compute and non-compute time of each rank's GPU (HTA: BreakdownAnalysis)."""
        rows = []
        for rank in self._sorted_ranks():
            t = self._ranks[rank]
            kernel, idle, compute = t["total_ns"], t["idle_ns"], t["compute_ns"]
            non_compute = t["busy_ns"] - compute
            share = (lambda ns: round(100 * ns / kernel, 2)) if kernel else (lambda ns: float("nan"))
            rows.append({"rank": rank, "idle_time(us)": idle / 1e3, "compute_time(us)": compute / 1e3,
                         "non_compute_time(us)": non_compute / 1e3, "kernel_time(us)": kernel / 1e3,
                         "idle_time_pctg": share(idle), "compute_time_pctg": share(compute),
                         "non_compute_time_pctg": share(non_compute)})
        columns = ["rank", "idle_time(us)", "compute_time(us)", "non_compute_time(us)", "kernel_time(us)",
                   "idle_time_pctg", "compute_time_pctg", "non_compute_time_pctg"]
        df = frame(rows, columns)
        if visualize and (p := _plotly()):
            px = p[0]
            plot = [{"rank": r["rank"], "idle_time": r["idle_time_pctg"] / 100,
                     "compute_time": r["compute_time_pctg"] / 100,
                     "non_compute_time": r["non_compute_time_pctg"] / 100} for r in rows]
            fig = px.bar(_df(plot), x="rank", y=["idle_time", "compute_time", "non_compute_time"],
                         title="Temporal breakdown across ranks", labels={"rank": "Rank"})
            fig.update_layout(yaxis_tickformat=".2%", yaxis_title="Percentage", legend_title="Time Breakdown")
            fig.show()
        return df

    def get_idle_time_breakdown(self, ranks=None, streams=None, visualize=True, visualize_pctg=True,
                                show_idle_interval_stats=False, consecutive_kernel_delay=30):
        """Each stream's idle time by cause: host wait, kernel wait, other (HTA: a tuple of the breakdown and,
        with show_idle_interval_stats, the intervals' statistics)."""
        if consecutive_kernel_delay != 30:
            warnings.warn("Plumb's hta mode counts gaps under 30 us as kernel wait; consecutive_kernel_delay="
                          f"{consecutive_kernel_delay} is not applied", stacklevel=2)
        if not ranks:
            ranks = [0]
        rows = []
        for rank in ranks:
            if rank not in self._ranks:
                raise ValueError(f"no rank {rank} among the traces (ranks: {self._sorted_ranks()})")
            for s in self._ranks[rank]["idle_by_stream"]:
                if streams and s["stream"] not in streams:
                    continue
                idle = s["host_wait_ns"] + s["kernel_wait_ns"] + s["other_ns"]
                for category, ns in (("host_wait", s["host_wait_ns"]), ("kernel_wait", s["kernel_wait_ns"]),
                                     ("other", s["other_ns"])):
                    # HTA lists a category for the gaps it found on the stream, and "other" always.
                    if ns == 0 and category != "other":
                        continue
                    rows.append({"rank": rank, "stream": s["stream"], "idle_category": category,
                                 "idle_time": ns / 1e3,
                                 "idle_time_ratio": round(ns / idle, 2) if idle else float("nan")})
        df = frame(rows, ["rank", "stream", "idle_category", "idle_time", "idle_time_ratio"])
        stats = None
        if show_idle_interval_stats:
            warnings.warn("Plumb's hta mode has no per-interval idle statistics: the second frame is None",
                          stacklevel=2)
        if visualize and (p := _plotly()):
            px = p[0]
            y = "idle_time_ratio" if visualize_pctg else "idle_time"
            plot = [dict(r, stream=str(r["stream"])) for r in rows]
            for rank in ranks:
                fig = px.bar(_df([r for r in plot if r["rank"] == rank]), x="stream", y=y, color="idle_category",
                             title=f"Idle time breakdown on rank {rank} per CUDA stream",
                             labels={"stream": "Stream", y: "Idle time (ratio)" if visualize_pctg
                                     else "Idle time (us)"})
                fig.show()
        return df, stats

    def get_gpu_kernel_breakdown(self, visualize=True, duration_ratio=0.8, num_kernels=10,
                                 include_memory_kernels=True, image_renderer=""):
        """The time of each kernel type and their overlaps, and per rank and type the kernels with most time
        (the rest folded into "others", as HTA folds them): a tuple of two frames."""
        kinds = _KINDS if include_memory_kernels else _KINDS[:2]
        type_sums = {}
        for rank in self._sorted_ranks():
            for name, ns in self._ranks[rank].get("kernel_type_ns", {}).items():
                # Without memory kernels the times a copy overlapped count as the other kinds' alone.
                kept = " overlapping ".join(k for k in name.split(" overlapping ") if k in kinds)
                if kept:
                    type_sums[kept] = type_sums.get(kept, 0) + ns
        total = sum(type_sums.values())
        type_rows = [{"kernel_type": k, "sum": int(round(ns / 1e3)),
                      "percentage": round(100 * ns / total, 1) if total else float("nan")}
                     for k, ns in sorted(type_sums.items(), key=lambda kv: -kv[1])]
        kernel_type_df = frame(type_rows, ["kernel_type", "sum", "percentage"])

        metric_rows = []
        per_rank = {}
        for rank in self._sorted_ranks():
            kernels = self._ranks[rank].get("kernels")
            if kernels is None:
                raise _cli.PlumbError("this plumb prints no kernel list in hta mode (doctor --mode hta "
                                      "--json: traces[].kernels); a newer plumb is needed", 0, ["doctor"])
            for kind in kinds:
                rows = self._fold([k for k in kernels if k["kernel_type"] == kind], duration_ratio, num_kernels)
                per_rank.setdefault(kind, {})[rank] = rows
                metric_rows += [{"name": r["name"], "sum (us)": r["sum"], "max (us)": r["max"],
                                 "min (us)": r["min"], "stddev": r["std"], "mean (us)": r["mean"],
                                 "kernel_type": kind, "rank": rank} for r in rows]
        metric_rows.sort(key=lambda r: (r["kernel_type"], r["name"], r["rank"]))
        kernel_metrics_df = frame(metric_rows, ["name", "sum (us)", "max (us)", "min (us)", "stddev",
                                                "mean (us)", "kernel_type", "rank"])
        if visualize and (p := _plotly()):
            self._plot_kernels(p, type_rows, per_rank, metric_rows, image_renderer)
        return kernel_type_df, kernel_metrics_df

    @staticmethod
    def _fold(kernels, duration_ratio, num_kernels):
        """HTA's aggregation of one rank's kernels of one type: more than num_kernels names, and those past
        num_kernels or past duration_ratio of the cumulated time become "others", whose statistics (and
        those of the names kept) are then over the names' totals."""
        rows = [{"name": k["name"], "sum": k["total_ns"] / 1e3, "max": k["max_ns"] / 1e3,
                 "min": k["min_ns"] / 1e3, "mean": k["mean_ns"] / 1e3, "std": k["stddev_ns"] / 1e3}
                for k in kernels]
        rows.sort(key=lambda r: -r["sum"])
        if len(rows) <= num_kernels:
            return rows
        cumsum, acc = [], 0.0
        for r in rows:
            acc += r["sum"]
            cumsum.append(acc)
        limit = _quantile(cumsum, duration_ratio)
        groups = {}
        for i, r in enumerate(rows):
            name = "others" if cumsum[i] > limit or i >= num_kernels else r["name"]
            groups.setdefault(name, []).append(r["sum"])
        return [dict(name=name, **_stats(sums)) for name, sums in sorted(groups.items())]

    def _plot_kernels(self, p, type_rows, per_rank, metric_rows, image_renderer):
        px, go, make_subplots = p
        renderer = image_renderer or None
        fig = px.pie(_df([r for r in type_rows if r["percentage"] and r["percentage"] > 0]), values="percentage",
                     names="kernel_type", height=500, title="Kernel Type Percentage Across All Ranks")
        fig.update_layout(margin=dict(l=50, r=50, b=50, t=50), showlegend=True,
                          legend=dict(yanchor="bottom", y=-0.4, xanchor="left", x=0))
        fig.show(renderer=renderer)
        for kind, ranks in per_rank.items():
            order = sorted(ranks)
            fig = make_subplots(rows=(len(order) + 1) // 2, cols=2,
                                specs=[[{"type": "domain"}, {"type": "domain"}]] * ((len(order) + 1) // 2))
            for i, rank in enumerate(order):
                fig.add_trace(go.Pie(labels=[r["name"] for r in ranks[rank]],
                                     values=[r["sum"] for r in ranks[rank]], title=f"Rank {rank}",
                                     automargin=False), i // 2 + 1, i % 2 + 1)
            fig.update_layout(title_text=f'Kernel type "{kind}" - kernel distribution on each rank',
                              margin=dict(l=50, r=50, b=50, t=50), showlegend=True,
                              height=400 * (1 + len(order) / 2),
                              legend=dict(yanchor="bottom", y=-0.1, xanchor="left", x=0))
            fig.show(renderer=renderer)
            for name in sorted({r["name"] for r in metric_rows if r["kernel_type"] == kind} - {"others"}):
                rows = _df([r for r in metric_rows if r["kernel_type"] == kind and r["name"] == name])
                fig = px.bar(rows, x="rank", y="mean (us)", title=name,
                             labels={"rank": "Rank", "mean (us)": "Mean Duration (us)"},
                             error_y=rows["max (us)"] - rows["mean (us)"],
                             error_y_minus=rows["mean (us)"] - rows["min (us)"])
                fig.update_layout(title_text=f'Kernel type "{kind}" - {name}',
                                  xaxis=dict(tickmode="linear", tick0=0, dtick=1))
                fig.show(renderer=renderer)

    def get_comm_comp_overlap(self, visualize=True):
        """The share (%) of each rank's communication that computation overlapped; NaN without communication."""
        rows = []
        for rank in self._sorted_ranks():
            t = self._ranks[rank]
            pct = round(100 * t["comm_overlap"], 2) if "comm_overlap" in t else float("nan")
            rows.append({"rank": rank, "comp_comm_overlap_pctg": pct})
        df = frame(rows, ["rank", "comp_comm_overlap_pctg"])
        if visualize and (p := _plotly()):
            fig = p[0].bar(_df(rows), x="rank", y="comp_comm_overlap_pctg",
                           title="Computation-Communication Overlap",
                           labels={"rank": "Rank", "comp_comm_overlap_pctg": "Computation-Communication Overlap "
                                                                           "Percentage"})
            fig.show()
        return df
