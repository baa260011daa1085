#!/usr/bin/env python3
"""tools/lint/unity_names.py finds each kind of name a unity build can confuse, and no other:
the fixture library tests/lint/unity_names_fixture/lib holds one case of each (its files say
which), including the one seen in drainsim (a file-local overload of a header's function)."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "unity_names_fixture")
CHECK = os.path.join(HERE, "..", "..", "tools", "lint", "unity_names.py")
EXPECTED = [
    "lib/backtest.cc:6: file-local Number is also declared in lib/table.h:7",
    "lib/grid.cc:10: namespace-scope `using namespace` reaches the next files of a unity batch",
    "lib/grid.cc:3: macro GRID_COLUMNS is not #undef'd in its file",
    "lib/spec.cc:6: Split is file-local here and in lib/grid.cc:7 (fixture)",
    "lib/spec.cc:17: file-local Table is also declared in lib/table.h:4",
    "lib/dump.cc:8: SecondsOf is declared only file-locally in lib/spec.cc:12 (fixture)",
]


def main():
    sources = ";".join(os.path.join(ROOT, "lib", f) for f in ("backtest.cc", "grid.cc", "spec.cc", "dump.cc"))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as listing:
        listing.write(f"fixture\t{sources}\n")
    try:
        run = subprocess.run([sys.executable, CHECK, "--root", ROOT, "--libraries", listing.name,
                              "--header-dirs", "lib"], capture_output=True, text=True)
    finally:
        os.unlink(listing.name)
    print(run.stdout, end="")
    print(run.stderr, end="", file=sys.stderr)
    found = sorted(run.stdout.splitlines())
    if run.returncode != 1 or found != sorted(EXPECTED):
        print(f"exit {run.returncode}; expected exit 1 and exactly:", *EXPECTED, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
