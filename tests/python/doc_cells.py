#!/usr/bin/env python3
"""The worked example of docs/python.md, run as a test: its ```python run cells, in order, in one
namespace, each one's printed output compared with the ```text block right after it (or with
nothing, when no block follows). SimGrid's .tesh files do the same: the example is the test, so
the output the page shows is the output the code gives.

    doc_cells.py [--write] DOC.md

checks (exit 1 on a difference, printing it), or with --write rewrites the output blocks with
what the cells print now (after a change of the model, say). The cells run in a temporary
directory where `scenarios` is the repository's: relative paths read as in the repository, and
whatever a cell writes (out/...) goes nowhere near it.
"""

import contextlib
import io
import os
import pathlib
import re
import sys
import tempfile

SOURCE_DIR = pathlib.Path(__file__).resolve().parents[2]
CELL = re.compile(r"```python run\n(.*?)```\n(?:\n```text\n(.*?)```\n)?", re.DOTALL)


def cells(text):
    """[(match, code, shown output or "")] of every runnable cell, in order."""
    return [(m, m.group(1), m.group(2) or "") for m in CELL.finditer(text)]


def run_cells(found):
    """What each cell prints, run in order in one namespace inside a scratch directory."""
    outputs = []
    namespace = {"__name__": "__doc_example__"}
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        os.symlink(SOURCE_DIR / "scenarios", pathlib.Path(scratch) / "scenarios")
        os.chdir(scratch)
        try:
            for _, code, _ in found:
                printed = io.StringIO()
                with contextlib.redirect_stdout(printed):
                    exec(compile(code, "docs/python.md", "exec"), namespace)
                outputs.append(printed.getvalue())
        finally:
            os.chdir(here)
    return outputs


def rewrite(text, found, outputs):
    """`text` with every cell's output block replaced by what it printed."""
    pieces, last = [], 0
    for (match, code, _), output in zip(found, outputs):
        pieces.append(text[last:match.start()])
        pieces.append(f"```python run\n{code}```\n")
        if output:
            pieces.append(f"\n```text\n{output}```\n")
        last = match.end()
    pieces.append(text[last:])
    return "".join(pieces)


def differences(found, outputs):
    """One message per cell whose output is not the one the page shows."""
    return [f"cell {i + 1} prints:\n{output}the page shows:\n{shown}"
            for i, ((_, _, shown), output) in enumerate(zip(found, outputs)) if output != shown]


def main(argv):
    write = "--write" in argv
    paths = [a for a in argv[1:] if a != "--write"]
    if len(paths) != 1:
        print(__doc__)
        return 2
    path = pathlib.Path(paths[0])
    text = path.read_text()
    found = cells(text)
    if not found:
        print(f"{path}: no ```python run cell")
        return 1
    outputs = run_cells(found)
    if write:
        path.write_text(rewrite(text, found, outputs))
        print(f"{path}: {len(found)} cells run, outputs written")
        return 0
    problems = differences(found, outputs)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{path}: outputs differ; if the new ones are right: {sys.argv[0]} --write {path}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
