#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The JSON contract of the CLI (docs/json.md), end to end over real files.

  json_goldens.py run --plumb BIN --data SHARED_DATA --goldens DIR [--update] [--only NAME...]
      imports the files each case names from ../shared/data into a fresh workspace, runs the command with
      --json and compares what it prints with DIR/NAME.json (--update writes them instead); a case without a
      setup (import) runs in an empty workspace of its own
  json_goldens.py fields --docs docs/json.md --goldens DIR
      every field a golden has is documented in docs/json.md under its "schema", and every documented
      field appears in a golden: the page cannot drift from what the commands print

Field paths: `a.b` is member b of object a, `a[]` an element of array a. A documented field whose type is
`any` is a free-form value (facets as their producer wrote them): what is under it is not checked.
Exit 77 (skipped) when the shared data folder is absent.
"""
import argparse
import difflib
import json
import math
import os
import re
import subprocess
import sys
import tempfile

SKIP = 77
REPO = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# The workspaces the cases read: files of ../shared/data (see its SOURCES.md), imported in this order.
SETUPS = {
    "traces": [
        "traces/kineto/hta_sampled_rank-0.json.gz",
        "traces/kineto/hta_sampled_rank-1.json.gz",
        "traces/nsys/cloverleaf_nsys2024.5.sqlite",
    ],
    "logs": [
        "tfevents/wandb_complex",
        "tfevents/reducer_strict",
    ],
    "lineage": [
        "lineage/openlineage/example_full_event.json",
    ],
    "trial": [  # a Lightning trial: params and a status
        "tfevents/shapeaxi_lightning_hparams/version_0",
    ],
    "h100": [  # shapes recorded: the doctor's FLOPs against the H100's peak
        "traces/kineto/tracelens_h100_qwen.json.gz",
    ],
}

# name: (setup, arguments after `plumb`). Every case gets --json and --workspace.
CASES = {
    "ls": ("traces", ["ls"]),
    # import, ls, doctor, diff (docs/json.md: plumb.import/1, plumb.ls/1, plumb.doctor/1, plumb.diff/1). Trace
    # ids are the traces setup's (plumb ls): 1 and 2 the hta_sampled ranks, 3 the Nsight export. A case without
    # a setup runs in a fresh workspace: import writes into it. {data} and {repo} in an argument are the shared
    # data folder and this checkout (its test fixtures: a file that fails to import).
    "import": (None, ["import", "{data}/traces/kineto/hta_sampled_rank-0.json.gz", "{data}/SOURCES.md",
                      "{repo}/tests/importers/chrometrace/data/no_events.json"]),
    "ls_logs": ("logs", ["ls", "--diagnostics"]),
    "ls_lineage": ("lineage", ["ls"]),
    "ls_trial": ("trial", ["ls"]),
    "doctor": ("traces", ["doctor"]),
    "doctor_hta": ("traces", ["doctor", "1", "2", "--mode", "hta"]),
    "doctor_flops": ("h100", ["doctor"]),
    "doctor_critical_path": ("h100", ["doctor", "--critical-path"]),
    "diff": ("traces", ["diff", "1", "2"]),
}

# diff --config, lineage, goodput and check (their presenters are in core/present/).
SETUPS["hparams"] = [
    "tfevents/shapeaxi_lightning_hparams/version_0",
    "tfevents/shapeaxi_lightning_hparams/version_1",
    "tfevents/shapeaxi_lightning_hparams/version_11",
]
CASES.update({
    "config_diff": ("hparams", ["diff", "--config", "version_0", "version_1", "version_11"]),
    "config_diff_metrics": ("logs", ["diff", "--config", "run_1", "run_2"]),
    "lineage_up": ("lineage", ["lineage", "instance.schema.table", "--up"]),
    "lineage_down": ("lineage", ["lineage", "3f5e83fa", "--down", "--depth", "2"]),
    "lineage_both": ("lineage", ["lineage", "1"]),
    "goodput": ("logs", ["goodput", "wandb_complex", "--interval", "60", "--flops-per-step", "1e12",
                         "--peak-flops", "1e14"]),
    "check": ("logs", ["check", "--objectives", "{repo}/tests/app/data/objectives_tfevents.yaml"]),
    # plumb calltree: a step of one thread's slices (Python frames, ops), and the Nsight export's samples.
    "calltree": ("h100", ["calltree", "1", "--thread", "25286", "--step", "ProfilerStep#6"]),
    "calltree_samples": ("traces", ["calltree", "3", "--samples", "--bottom-up"]),
})

# plumb memory: PyTorch's memory events of the H100 trace (2,450 of them; its largest Total Allocated,
# 2,088,508,416 bytes, is GPU 0's peak).
CASES.update({
    "memory": ("h100", ["memory", "1"]),
})

# plumb query (docs/sql.md): SQL over the public views.
CASES.update({
    "query": ("traces", ["query", "SELECT trace_id, kind, count(*) AS ops, sum(dur_ns) AS total_ns, sum(bytes) AS "
                                  "bytes FROM gpu_ops GROUP BY trace_id, kind ORDER BY trace_id, kind"]),
})

# Values that differ from run to run or machine to machine, replaced before comparing.
VOLATILE_KEYS = {"imported_at", "import_seconds", "elapsed_ms", "size_bytes", "workspace_bytes"}


def normalize(value, replacements):
    if isinstance(value, dict):
        return {k: ("<volatile>" if k in VOLATILE_KEYS else normalize(v, replacements)) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize(v, replacements) for v in value]
    if isinstance(value, str):
        for old, new in replacements:
            value = value.replace(old, new)
        return value
    return value


def same(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            return False
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b and type(a) is type(b)


def dump(value):
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def run_cases(args):
    if not os.path.isdir(args.data):
        print(f"SKIP: no shared data folder at {args.data}")
        return SKIP
    names = args.only or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        print("unknown case(s): " + ", ".join(unknown))
        return 2
    failures = 0
    with tempfile.TemporaryDirectory(prefix="plumb-goldens-") as tmp:
        workspaces = {}
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        env.pop("PLUMB_WORKSPACE", None)
        for name in names:
            setup, argv = CASES[name]
            argv = [a.replace("{data}", args.data).replace("{repo}", REPO) for a in argv]
            if setup is None:  # a fresh workspace of its own
                workspaces[name] = os.path.join(tmp, name + ".plumb")
                missing = [a for a in argv if a.startswith((args.data, REPO)) and not os.path.exists(a)]
                if missing:
                    print(f"SKIP: the shared data lacks {', '.join(missing)}")
                    return SKIP
            elif setup not in workspaces:
                ws = os.path.join(tmp, setup + ".plumb")
                files = [os.path.join(args.data, f) for f in SETUPS[setup]]
                missing = [f for f in files if not os.path.exists(f)]
                if missing:
                    print(f"SKIP: the shared data lacks {', '.join(missing)}")
                    return SKIP
                r = subprocess.run([args.plumb, "import", *files, "--workspace", ws], env=env,
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    print(f"importing the {setup} setup failed ({r.returncode}):\n{r.stdout}{r.stderr}")
                    return 1
                workspaces[setup] = ws
            ws = workspaces[setup if setup is not None else name]
            cmd = [args.plumb, *argv, "--json", "--workspace", ws]
            r = subprocess.run(cmd, env=env, capture_output=True, text=True)
            printed = r.stdout
            try:
                value = json.loads(printed)
            except json.JSONDecodeError as e:
                print(f"{name}: `{' '.join(cmd)}` (exit {r.returncode}) printed no JSON ({e}):\n{printed}{r.stderr}")
                failures += 1
                continue
            value = normalize(value, [(ws, "<workspace>"), (tmp, "<tmp>"),
                                      (os.path.realpath(args.data), "<data>"), (args.data, "<data>"), (REPO, "<repo>")])
            value = {"exit": r.returncode, "output": value}
            path = os.path.join(args.goldens, name + ".json")
            if args.update:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(dump(value))
                print(f"{name}: wrote {path}")
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    golden = json.load(f)
            except FileNotFoundError:
                print(f"{name}: no golden {path} (run with --update to write it)")
                failures += 1
                continue
            if not same(value, golden):
                failures += 1
                diff = difflib.unified_diff(dump(golden).splitlines(True), dump(value).splitlines(True),
                                            path, f"plumb {' '.join(argv)} --json")
                sys.stdout.writelines(list(diff)[:200])
                print(f"{name}: differs from {path}")
            else:
                print(f"{name}: same as {path}")
    return 1 if failures else 0


def paths_of(value, prefix, out, free):
    """Every field path in value (containers included), not descending into documented free-form ones."""
    if prefix and prefix in free:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            p = f"{prefix}.{k}" if prefix else k
            out.add(p)
            paths_of(v, p, out, free)
    elif isinstance(value, list):
        for v in value:
            p = prefix + "[]"
            out.add(p)
            paths_of(v, p, out, free)


def documented_fields(docs):
    """{schema: {path: type}} from the tables under each `## plumb.<command>/N` heading."""
    fields, schema = {}, None
    heading = re.compile(r"^##+ .*`(plumb\.[a-z-]+/[0-9]+)`")
    row = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*([^|]*?)\s*\|")
    with open(docs, encoding="utf-8") as f:
        for line in f:
            m = heading.match(line)
            if m:
                schema = m.group(1)
                fields.setdefault(schema, {})
                continue
            if line.startswith("## "):
                schema = None
            m = row.match(line)
            if m and schema:
                fields[schema][m.group(1)] = m.group(2)
    return fields


def check_fields(args):
    documented = documented_fields(args.docs)
    seen = {}
    problems = []
    for name in sorted(os.listdir(args.goldens)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(args.goldens, name), encoding="utf-8") as f:
            output = json.load(f)["output"]
        schema = output.get("schema") if isinstance(output, dict) else None
        if not schema:
            problems.append(f"{name}: the output has no \"schema\" field")
            continue
        if schema not in documented:
            problems.append(f"{name}: {schema} is not documented in {args.docs}")
            continue
        free = {p for p, t in documented[schema].items() if t.split()[0] == "any"}
        paths = set()
        paths_of(output, "", paths, free)
        seen.setdefault(schema, set()).update(paths)
        for p in sorted(paths - documented[schema].keys()):
            problems.append(f"{name}: field `{p}` of {schema} is not documented in {args.docs}")
    for schema, fields in sorted(documented.items()):
        for p in sorted(fields.keys() - seen.get(schema, set())):
            problems.append(f"{args.docs}: {schema} documents `{p}`, which no golden has")
    for p in problems:
        print(p)
    print(f"{sum(len(f) for f in documented.values())} documented fields of {len(documented)} schemas, "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("run")
    r.add_argument("--plumb", required=True)
    r.add_argument("--data", required=True)
    r.add_argument("--goldens", required=True)
    r.add_argument("--update", action="store_true")
    r.add_argument("--only", nargs="*")
    f = sub.add_parser("fields")
    f.add_argument("--docs", required=True)
    f.add_argument("--goldens", required=True)
    args = parser.parse_args()
    return run_cases(args) if args.mode == "run" else check_fields(args)


if __name__ == "__main__":
    sys.exit(main())
