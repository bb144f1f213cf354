#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the relative links of Markdown files: the target file exists and, for `#anchor`, a heading makes it.

    python3 eng/check-links.py [PATH ...]   (default: README.md CONTRIBUTING.md CHANGELOG.md docs/)

Prints one line per broken link (file:line: target) and exits 1 if there is any.
"""
import pathlib
import re
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def anchors(path):
    found, fenced = set(), False
    for line in path.read_text().splitlines():
        if FENCE.match(line):
            fenced = not fenced
        if fenced or not line.startswith("#"):
            continue
        text = line.lstrip("#").strip().lower()
        slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        base, n = slug, 1
        while slug in found:
            slug, n = f"{base}-{n}", n + 1
        found.add(slug)
    found.update(re.findall(r'<a (?:name|id)="([^"]+)"', path.read_text()))
    return found


def files(args):
    for arg in args or ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "docs"]:
        path = (REPO / arg)
        yield from sorted(path.rglob("*.md")) if path.is_dir() else [path]


def main(args):
    broken = []
    for doc in files(args):
        fenced = False
        for number, line in enumerate(doc.read_text().splitlines(), 1):
            if FENCE.match(line):
                fenced = not fenced
            if fenced:
                continue
            for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
                if re.match(r"^[a-z]+:", target) or target.startswith("//"):
                    continue
                name, _, anchor = target.partition("#")
                path = (doc.parent / name).resolve() if name else doc
                if not path.exists():
                    broken.append(f"{doc.relative_to(REPO)}:{number}: {target} (no such file)")
                elif anchor and path.suffix == ".md" and anchor.lower() not in anchors(path):
                    broken.append(f"{doc.relative_to(REPO)}:{number}: {target} (no such heading)")
    print("\n".join(broken) if broken else "all relative links resolve")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
