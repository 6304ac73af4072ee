# SPDX-License-Identifier: GPL-3.0-or-later
"""Running the `plumb` command: where it is, its JSON, its errors as exceptions."""
import json
import os
import shutil
import subprocess

__all__ = ["PlumbError", "UnknownCommandError", "plumb_executable", "run", "run_json"]


class PlumbError(Exception):
    """The `plumb` command failed: `message` is what it said (its stderr, else its stdout), `returncode` its
    exit status (1: a failed file, a trace not in the workspace...; 2: a usage error or a refused statement),
    `command` the arguments it ran with, `result` its JSON output when it printed one (plumb import does)."""

    def __init__(self, message, returncode, command, result=None):
        super().__init__(f"{message} (exit status {returncode})")
        self.message = message
        self.returncode = returncode
        self.command = command
        self.result = result


class UnknownCommandError(PlumbError):
    """This `plumb` does not have the command asked for (an older build)."""


def plumb_executable():
    """The `plumb` command: $PLUMB when set, else the one on PATH."""
    named = os.environ.get("PLUMB")
    if named:
        if not (os.path.isfile(named) and os.access(named, os.X_OK)):
            raise FileNotFoundError(f"PLUMB names {named!r}, which is not an executable file")
        return named
    found = shutil.which("plumb")
    if not found:
        raise FileNotFoundError("the plumb command is not on PATH: install Plumb or set PLUMB to its path")
    return found


def run(args, workspace=None):
    """Runs `plumb ARGS [--workspace W]`; returns its stdout, or raises PlumbError on a non-zero exit."""
    command = [plumb_executable(), *[str(a) for a in args]]
    if workspace is not None:
        command += ["--workspace", os.fspath(workspace)]
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    proc = subprocess.run(command, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        message = (proc.stderr.strip() or proc.stdout.strip() or "no message").splitlines()
        # plumb prefixes its errors with "plumb: "; the hint after the first line is kept.
        text = "\n".join(message)
        if text.startswith("plumb: "):
            text = text[len("plumb: "):]
        result = None
        if proc.stdout.lstrip().startswith("{"):
            try:
                result = json.loads(proc.stdout)
            except ValueError:
                result = None
        kind = UnknownCommandError if "is neither a command nor" in text else PlumbError
        raise kind(text, proc.returncode, command, result)
    return proc.stdout


def run_json(args, workspace=None, schema=None):
    """Runs `plumb ARGS --json` and returns the parsed object; checks its "schema" when one is given."""
    out = run([*args, "--json"], workspace)
    data = json.loads(out)
    if schema is not None and data.get("schema") != schema:
        raise PlumbError(f"expected JSON of schema {schema}, got {data.get('schema')!r}", 0, args)
    return data
