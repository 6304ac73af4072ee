#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks on the documentation.

usage: check_docs.py readme-size SOURCE_DIR [MAX_BYTES]   README.md stays a short front page (default 10 KB)
       check_docs.py links SOURCE_DIR                     every relative link in README.md and docs/*.md
                                                          points to a file that exists, and every #anchor
                                                          to a heading of its page (as GitHub names it)
"""
import glob
import os
import re
import sys

LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def strip_code(text):
    """The text with fenced blocks and inline code blanked out (links there are examples, not links)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else re.sub(r"`[^`]*`", "``", line))
    return "\n".join(out)


def anchor(title):
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # a link's text
    title = title.replace("`", "").replace("*", "")
    out = ""
    for c in title.strip().lower():
        if c.isalnum() or c in "-_":
            out += c
        elif c == " ":
            out += "-"
    return out


def anchors(path, cache={}):
    if path not in cache:
        names, seen = set(), {}
        with open(path, encoding="utf-8") as f:
            for line in strip_code(f.read()).split("\n"):
                m = HEADING.match(line)
                if m:
                    a = anchor(m.group(2))
                    n = seen.get(a, 0)
                    seen[a] = n + 1
                    names.add(a if n == 0 else f"{a}-{n}")
        cache[path] = names
    return cache[path]


def check_links(root):
    pages = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    bad, count = [], 0
    for page in pages:
        if not os.path.isfile(page):
            bad.append(f"{os.path.relpath(page, root)}: missing")
            continue
        with open(page, encoding="utf-8") as f:
            text = strip_code(f.read())
        for lineno, line in enumerate(text.split("\n"), 1):
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                    continue
                count += 1
                where = f"{os.path.relpath(page, root)}:{lineno}: {target}"
                path, _, frag = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                if not os.path.exists(resolved):
                    bad.append(f"{where}: no such file")
                elif frag and resolved.endswith(".md") and frag not in anchors(resolved):
                    bad.append(f"{where}: no heading #{frag} in {os.path.relpath(resolved, root)}")
    for b in bad:
        print(b)
    print(f"{count} relative links in {len(pages)} pages, {len(bad)} broken")
    return 1 if bad or count == 0 else 0


def check_readme_size(root, limit):
    size = os.path.getsize(os.path.join(root, "README.md"))
    print(f"README.md: {size} bytes (limit {limit})")
    if size >= limit:
        print("README.md is the front page: move the detail into docs/ and link to it")
        return 1
    return 0


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("readme-size", "links"):
        print(__doc__)
        return 2
    root = sys.argv[2]
    if sys.argv[1] == "readme-size":
        return check_readme_size(root, int(sys.argv[3]) if len(sys.argv) > 3 else 10 * 1024)
    return check_links(root)


if __name__ == "__main__":
    sys.exit(main())
