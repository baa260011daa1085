"""Shared by the Python module's tests: where the sources and this build's drainsim are, and the
CLI run the module is compared with. CTest sets DRAINSIM_SOURCE_DIR, DRAINSIM_BINARY and
PYTHONPATH (tests/python/CMakeLists.txt) and runs pytest from the source directory, so that a
scenario path means the same to the module and to the CLI."""

import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("DRAINSIM_SOURCE_DIR",
                                         pathlib.Path(__file__).resolve().parents[2]))
DRAINSIM = os.environ.get("DRAINSIM_BINARY", str(SOURCE_DIR / "build/tools/drainsim/drainsim"))


def shipped_scenarios():
    """Every shipped scenario as a path relative to the source directory, sorted."""
    return sorted(f"scenarios/{p.name}" for p in (SOURCE_DIR / "scenarios").glob("*.json")
                  if p.name != "schema.json")


def cli(*args):
    """drainsim ARGS... from the source directory: the CompletedProcess, output as bytes."""
    return subprocess.run([DRAINSIM, *map(str, args)], cwd=SOURCE_DIR, capture_output=True,
                          check=False)


def cli_file(out_dir, name, *args):
    """The bytes of the file `name` that `drainsim ARGS... --out OUT_DIR --quiet` writes; the
    command must exit 0 or 1 (an expectation or a gate failed: the files are written)."""
    done = cli(*args, "--out", out_dir, "--quiet")
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    return (pathlib.Path(out_dir) / name).read_bytes()


@pytest.fixture(autouse=True)
def _in_source_dir(monkeypatch):
    monkeypatch.chdir(SOURCE_DIR)
