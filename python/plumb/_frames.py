# SPDX-License-Identifier: GPL-3.0-or-later
"""Tables as pandas DataFrames when pandas is installed, else as lists of dicts (one a row)."""

__all__ = ["have_pandas", "frame"]


def have_pandas():
    try:
        import pandas  # noqa: F401
    except ImportError:
        return False
    return True


def frame(rows, columns):
    """A DataFrame of `rows` (dicts) with `columns` in that order, or the rows themselves without pandas."""
    rows = [{c: r.get(c) for c in columns} for r in rows]
    if not have_pandas():
        return rows
    import pandas as pd

    return pd.DataFrame(rows, columns=columns)
