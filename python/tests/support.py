# SPDX-License-Identifier: GPL-3.0-or-later
"""What the tests share: the real files of ../shared/data (SOURCES.md there), and the plumb command."""
import os
import shutil
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)  # python/
REPO = os.path.dirname(PACKAGE_ROOT)
SHARED_DATA = os.environ.get("PLUMB_SHARED_DATA") or os.path.join(REPO, "..", "shared", "data")
KINETO = os.path.join(SHARED_DATA, "traces", "kineto")


def need_shared_data(*relative):
    """Skips the test when ../shared/data (or one of its files) is absent, as in a plain clone."""
    for r in relative or ("",):
        path = os.path.join(SHARED_DATA, r)
        if not os.path.exists(path):
            raise unittest.SkipTest(f"{path} is absent: the real files of ../shared/data sit beside the checkout")


def need_plumb():
    """The plumb command the package will run: $PLUMB (CTest passes the one it built), else PATH."""
    named = os.environ.get("PLUMB")
    if named and os.access(named, os.X_OK):
        return named
    found = shutil.which("plumb")
    if not found:
        raise unittest.SkipTest("no plumb command: set PLUMB to the built one (build/app/plumb)")
    return found


def link_traces(folder, *names, source=KINETO):
    """Links real traces into `folder` (the caches TraceAnalysis writes beside them stay out of shared/)."""
    os.makedirs(folder, exist_ok=True)
    for n in names:
        os.symlink(os.path.join(source, n), os.path.join(folder, n))
    return folder


def need_pandas():
    """The frames are compared as DataFrames (Debian: python3-pandas); test_no_pandas covers the rest."""
    try:
        import pandas  # noqa: F401
    except ImportError:
        raise unittest.SkipTest("pandas is not installed (Debian: python3-pandas)")
