#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every command's command line: `--opt=value` and `--opt value` mean the same, `--` ends the options (what
follows is an argument even when it looks like an option), an unknown option is a usage error (exit 2, with
the command's usage), and `--help` prints the command's usage and exits 0.

usage: cli_options_test.py PLUMB SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

plumb, src = sys.argv[1], sys.argv[2]
fixtures = os.path.join(src, "tests", "importers")
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.pop("PLUMB_WORKSPACE", None)
    return subprocess.run([plumb, *args], capture_output=True, text=True, env=env, timeout=300)


with tempfile.TemporaryDirectory(prefix="plumb-options-") as tmp:
    ws = os.path.join(tmp, "ws.plumb")
    r = run("import", os.path.join(fixtures, "chrometrace", "data", "basic.json"),
            os.path.join(fixtures, "lifecycle", "data", "preemptions.jsonl"),
            os.path.join(fixtures, "mlflow", "data", "filestore"),
            os.path.join(fixtures, "openlineage", "data", "cycle.ndjson"), "--workspace", ws)
    check(r.returncode == 0, f"the fixtures import: {r.stdout}{r.stderr}")
    objectives = os.path.join(tmp, "objectives.yaml")
    with open(objectives, "w") as f:
        f.write("objectives:\n  - last(loss) < 1\n")

    # command: (arguments before the option, a valued option, its value, what follows "--" in the test of
    # `--`: something that would be an option, so the command must take it as an argument and refuse it)
    cases = {
        "import": ([os.path.join(fixtures, "chrometrace", "data", "basic.json")], "jobs", "1"),
        "ls": ([], "workspace", ws),
        "doctor": (["1", "--json"], "mode", "hta"),
        "diff": (["1", "1", "--json"], "mode", "linked"),
        "lineage": (["1", "--json"], "depth", "1"),
        "goodput": (["preempted-run", "--json"], "interval", "5"),
        "memory": (["1", "--json"], "workspace", ws),
        "check": (["--json"], "objectives", objectives),
        "report": (["-o", os.path.join(tmp, "r.pdf")], "page-size", "Legal"),
        "query": (["--csv", "SELECT count(*) FROM kernels"], "workspace", ws),
        "export": (["1", "-o", os.path.join(tmp, "e.json")], "from", "0"),
    }
    for command, (before, option, value) in cases.items():
        # --help
        r = run(command, "--help")
        check(r.returncode == 0 and r.stdout.startswith(f"Usage: plumb {command}"),
              f"`plumb {command} --help` exits 0 with its usage ({r.returncode}: {r.stdout[:80]!r})")
        check(f"--{option}" in r.stdout, f"`plumb {command} --help` lists --{option}")
        # an unknown option
        r = run(command, *before, "--no-such-option", "--workspace", ws)
        check(r.returncode == 2 and "Unknown option 'no-such-option'" in r.stderr
              and f"Usage: plumb {command}" in r.stderr,
              f"`plumb {command} --no-such-option` is a usage error with the usage ({r.returncode}: {r.stderr[:200]!r})")
        # --opt=value and --opt value
        if command == "import":
            joined = run(command, *before, f"--{option}={value}", "--workspace", os.path.join(tmp, "a.plumb"))
            apart = run(command, *before, f"--{option}", value, "--workspace", os.path.join(tmp, "b.plumb"))
            same = joined.returncode == apart.returncode == 0 and "imported" in joined.stdout and "imported" in apart.stdout
        elif command == "ls":
            joined, apart = run(command, "--json", f"--workspace={ws}"), run(command, "--json", "--workspace", ws)
            same = joined.returncode == 0 and joined.stdout == apart.stdout
        else:
            joined = run(command, *before, f"--{option}={value}", "--workspace", ws)
            apart = run(command, *before, f"--{option}", value, f"--workspace={ws}")
            same = (joined.returncode, joined.stdout, joined.stderr) == (apart.returncode, apart.stdout, apart.stderr)
        check(same, f"`plumb {command} --{option}={value}` is `--{option} {value}` "
                    f"({joined.returncode}: {joined.stdout[:120]!r}{joined.stderr[:200]!r} / "
                    f"{apart.returncode}: {apart.stdout[:120]!r}{apart.stderr[:200]!r})")
        # --
        args = {"import": ["--workspace", ws, "--", "--json"],
                "ls": ["--workspace", ws, "--", "--json"],
                "doctor": ["--workspace", ws, "--", "--json"],
                "diff": ["1", "--workspace", ws, "--", "--json"],
                "lineage": ["--workspace", ws, "--", "--json"],
                "goodput": ["--workspace", ws, "--", "--json"],
                "memory": ["--workspace", ws, "--", "--json"],
                "check": ["--objectives", objectives, "--workspace", ws, "--", "--json"],
                "report": ["-o", os.path.join(tmp, "r.pdf"), "--workspace", ws, "--", "--json"],
                "query": ["--workspace", ws, "--", "--json"],
                "export": ["1", "-o", os.path.join(tmp, "e.json"), "--workspace", ws, "--", "--json"]}[command]
        r = run(command, *args)
        check(r.returncode != 0 and not r.stdout.lstrip().startswith("{") and "--json" in r.stderr,
              f"`plumb {command} ... -- --json` takes --json as an argument ({r.returncode}: {r.stdout[:80]!r} {r.stderr[:200]!r})")

    # diff --input-annotations: a regular expression, repeatable, its ranges input pipeline in the step time.
    def input_ns(*patterns):
        extra = [a for p in patterns for a in ("--input-annotations", p)]
        r = run("diff", "1", "1", "--json", "--workspace", ws, *extra)
        check(r.returncode == 0, f"`plumb diff --input-annotations {patterns}` runs ({r.returncode}: {r.stderr[:200]!r})")
        if r.returncode != 0:
            return None
        parts = json.loads(r.stdout)["step_time"]["components"]
        return next(p["baseline_ns"] for p in parts if p["part"] == "input_pipeline")
    plain, matched = input_ns(), input_ns("^no-such-range$", "aten::m")
    check(plain == 0 and matched is not None and matched > 0,
          f"--input-annotations moves matching ranges into the input pipeline ({plain} -> {matched})")
    for bad, says in (("(", "is not a regular expression"), ("", "not an empty one")):
        r = run("diff", "1", "1", "--workspace", ws, "--input-annotations", bad)
        check(r.returncode == 2 and says in r.stderr and "Usage: plumb diff" in r.stderr,
              f"`--input-annotations {bad!r}` is a usage error saying why ({r.returncode}: {r.stderr[:200]!r})")
    r = run("diff", "--config", "a", "b", "--workspace", ws, "--input-annotations", "x")
    check(r.returncode == 2 and "--input-annotations is for traces" in r.stderr,
          f"`diff --config --input-annotations` is a usage error ({r.returncode}: {r.stderr[:200]!r})")

print(f"{len(failures)} failure(s)" if failures else "options test passed")
sys.exit(1 if failures else 0)
