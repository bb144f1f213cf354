#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Keeps the code in the docs equal to the compiled sample.

Sample files mark regions with `// snippet: NAME` ... `// end snippet` (or the XML comment forms). A Markdown file
shows one with a `<!-- snippet: NAME -->` line right before a fenced code block. A C# region is shown after the
`using` directives of its file, so that every C# block in the docs says where its types come from (the implicit
usings of an SDK project aside). `check` (the default) fails when a block differs from its region, or names a region
the sample does not have; `update` rewrites the blocks.

    python3 samples/Cicero.SampleService/snippets.py [check|update]
"""
import pathlib
import re
import sys
import textwrap

SAMPLE = pathlib.Path(__file__).resolve().parent
REPO = SAMPLE.parent.parent
DOCS = [REPO / "docs" / "getting-started.md", SAMPLE / "README.md"]
START = re.compile(r"^\s*(?://|<!--)\s*snippet:\s*([\w-]+)\s*(?:-->)?\s*$")
END = re.compile(r"^\s*(?://|<!--)\s*end snippet\s*(?:-->)?\s*$")
USING = re.compile(r"^using [\w.]+(?: = [\w.<>, ]+)?;$")
DOC_MARK = re.compile(r"^<!-- snippet: ([\w-]+) -->$")


def regions():
    found = {}
    for path in sorted(SAMPLE.rglob("*")):
        if path.suffix not in {".cs", ".csproj", ".proto"} or {"bin", "obj"} & set(path.parts):
            continue
        name, lines = None, []
        text = path.read_text().splitlines()
        usings = [line for line in text if USING.match(line)] if path.suffix == ".cs" else []
        for number, line in enumerate(text, 1):
            if name is None:
                match = START.match(line)
                if match:
                    name, lines = match.group(1), []
            elif END.match(line):
                if name in found:
                    sys.exit(f"{path}:{number}: snippet '{name}' is defined twice")
                region = textwrap.dedent("\n".join(lines)).strip("\n")
                found[name] = "\n".join(usings) + "\n\n" + region if usings else region
                name = None
            else:
                lines.append(line)
        if name is not None:
            sys.exit(f"{path}: snippet '{name}' has no end")
    return found


def main(mode):
    snippets = regions()
    problems = []
    for doc in DOCS:
        lines = doc.read_text().splitlines()
        out, i = [], 0
        while i < len(lines):
            out.append(lines[i])
            match = DOC_MARK.match(lines[i])
            i += 1
            if not match:
                continue
            name = match.group(1)
            if name not in snippets:
                problems.append(f"{doc.relative_to(REPO)}:{i}: no snippet named '{name}' in the sample")
                continue
            if i >= len(lines) or not lines[i].startswith("```"):
                problems.append(f"{doc.relative_to(REPO)}:{i}: a code block must follow the snippet marker")
                continue
            fence = lines[i]
            end = i + 1
            while end < len(lines) and lines[end] != "```":
                end += 1
            if "\n".join(lines[i + 1:end]) != snippets[name]:
                problems.append(f"{doc.relative_to(REPO)}:{i}: snippet '{name}' differs from the sample")
            out.extend([fence, *snippets[name].splitlines(), "```"])
            i = end + 1
        if mode == "update":
            doc.write_text("\n".join(out) + "\n")
    if mode == "check" and problems:
        print("\n".join(problems))
        print("run: python3 samples/Cicero.SampleService/snippets.py update")
        return 1
    print(f"{len(snippets)} snippets, {'updated' if mode == 'update' else 'docs in sync'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "check"))
