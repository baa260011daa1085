"""docs/python.md's worked example runs and prints what the page shows (doc_cells.py)."""

import doc_cells
from conftest import SOURCE_DIR


def test_the_worked_example_prints_what_docs_python_md_shows():
    text = (SOURCE_DIR / "docs/python.md").read_text()
    found = doc_cells.cells(text)
    assert len(found) >= 5
    problems = doc_cells.differences(found, doc_cells.run_cells(found))
    assert not problems, ("\n".join(problems) + "\nif the new outputs are right: "
                          "python3 tests/python/doc_cells.py --write docs/python.md")
