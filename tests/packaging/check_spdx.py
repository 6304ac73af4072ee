#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every source file of the tree names its licence in an SPDX line near its top.

Source files: C++ (.cpp, .h, .inc), .proto, Python, shell scripts and CMake files, wherever they are (the
generators beside their fixtures too); the fuzz corpora and the fixtures themselves are data. Usage:
check_spdx.py SOURCE_DIR. Lists the files without the line and exits 1 when there are any.
"""
import os
import subprocess
import sys

TAG = "SPDX-License-Identifier: GPL-3.0-or-later"
CODE = (".cpp", ".h", ".inc", ".proto", ".py", ".sh", ".cmake")
SCRIPTS = {"CMakeLists.txt", "scripts/dev", ".ci/run"}


def tracked(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True).stdout
        return [f for f in out.splitlines() if f]
    except (OSError, subprocess.CalledProcessError):  # a source tarball: walk it
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if not x.startswith(".") and not x.startswith("build")]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
        return files


def is_source(path):
    if "/corpus/" in path:
        return False
    return path.endswith(CODE) or os.path.basename(path) == "CMakeLists.txt" or path in SCRIPTS


root = sys.argv[1]
files = [f for f in tracked(root) if is_source(f)]
missing = []
for f in files:
    with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
        head = fh.read(400)
    if TAG not in head:
        missing.append(f)
for f in missing:
    print(f"{f}: no '{TAG}' line in its first lines")
print(f"{len(files) - len(missing)} of {len(files)} source files carry the SPDX line")
sys.exit(1 if missing or not files else 0)
