# SPDX-License-Identifier: GPL-3.0-or-later
"""The analyses' JSON as dicts that display in Jupyter: a verdict as a short HTML summary."""
import html

__all__ = ["Verdict", "DoctorResult", "DiffResult"]


def _ms(ns):
    return f"{ns / 1e6:,.1f} ms"


class Verdict(dict):
    """A trace's verdict (`plumb.doctor/1`'s `traces[].verdict`): `component` names what limits it,
    `headline` says it in a sentence, `evidence` and `tunables` are lists of sentences."""

    @property
    def component(self):
        return self.get("component", "")

    @property
    def headline(self):
        return self.get("headline", "")

    def __str__(self):
        return self.headline or self.component

    def _repr_html_(self):
        evidence = "".join(f"<li>{html.escape(e)}</li>" for e in self.get("evidence", [])[:4])
        tunables = ", ".join(html.escape(t) for t in self.get("tunables", [])[:3])
        parts = [f"<div class='plumb-verdict'><b>{html.escape(self.component or 'inconclusive')}</b>"]
        if self.headline:
            parts.append(f"<p>{html.escape(self.headline)}</p>")
        if evidence:
            parts.append(f"<ul>{evidence}</ul>")
        if tunables:
            parts.append(f"<p><i>Try:</i> {tunables}</p>")
        parts.append("</div>")
        return "".join(parts)


class DoctorResult(dict):
    """One trace of `plumb doctor --json` (`plumb.doctor/1`'s `traces[]`), its verdict a Verdict."""

    def __init__(self, data):
        super().__init__(data)
        if isinstance(self.get("verdict"), dict):
            self["verdict"] = Verdict(self["verdict"])

    @property
    def verdict(self):
        return self.get("verdict", Verdict())

    def _repr_html_(self):
        total = self.get("total_ns", 0) or 0
        share = (lambda ns: f"{100 * ns / total:.1f}%") if total else (lambda ns: "-")
        rows = "".join(
            f"<tr><td>{label}</td><td>{_ms(self.get(key, 0))}</td><td>{share(self.get(key, 0))}</td></tr>"
            for label, key in (("computation", "compute_ns"), ("exposed communication", "exposed_comm_ns"),
                               ("exposed memcpy/memset", "exposed_memory_ns"), ("idle", "idle_ns")))
        return (f"<div class='plumb-doctor'><b>{html.escape(str(self.get('name', '')))}</b>"
                f" (trace {self.get('trace')}, GPU window {_ms(total)}, {len(self.get('steps', []))} steps)"
                f"<table>{rows}</table>{self.verdict._repr_html_()}</div>")


class DiffResult(dict):
    """`plumb diff --json` (`plumb.diff/1`): `headline` says what changed."""

    @property
    def headline(self):
        return self.get("headline", "")

    def __str__(self):
        return self.headline

    def _repr_html_(self):
        rows = ""
        step_time = self.get("step_time") or {}
        for c in step_time.get("components", [])[:4]:
            rows += (f"<tr><td>{html.escape(c.get('name', ''))}</td><td>{_ms(c.get('baseline_ns', 0))}</td>"
                     f"<td>{_ms(c.get('compared_ns', 0))}</td><td>{c.get('delta_ns', 0) / 1e6:+,.1f} ms</td></tr>")
        table = (f"<table><tr><th></th><th>baseline</th><th>compared</th><th>change</th></tr>{rows}</table>"
                 if rows else "")
        return f"<div class='plumb-diff'><p>{html.escape(self.headline)}</p>{table}</div>"
