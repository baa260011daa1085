#!/usr/bin/env python3
"""Per-folder line coverage from gcovr's JSON summary (tools/test --coverage).

usage: coverage_summary.py SUMMARY.json

Prints, for each folder below, the lines covered, the lines instrumented and the percentage,
then the files under their folder's floor, worst first. Exit status 1 when a folder with a
floor is below it, else 0. The floors are the project's target (issue 20): 95% of lines in
sim/, chaos/ (the swarm, under sim/ until issue 15), reports/ and experiments/; tools/drainsim/
(the CLI, mostly run as a separate process by the tests) is printed for information only.
"""
import json
import sys

# Folder (a path prefix relative to the repository) -> floor in percent, or None: no floor.
FOLDERS = [("sim/", 95.0), ("chaos/", 95.0), ("reports/", 95.0), ("experiments/", 95.0),
           ("tools/drainsim/", None)]
WORST_SHOWN = 12


def percent(covered, total):
    return 100.0 * covered / total if total else 100.0


def main(path):
    with open(path) as f:
        files = json.load(f)["files"]
    below_floor = []
    worst = []
    print("line coverage (gcovr):")
    for folder, floor in FOLDERS:
        mine = [f for f in files if f["filename"].startswith(folder)]
        covered = sum(f["line_covered"] for f in mine)
        total = sum(f["line_total"] for f in mine)
        pct = percent(covered, total)
        verdict = "" if floor is None else ("ok" if pct >= floor else "BELOW %.0f%%" % floor)
        print(("  %-16s %6d / %6d lines  %5.1f%%  %s" % (folder, covered, total, pct, verdict)).rstrip())
        if floor is not None:
            if pct < floor:
                below_floor.append(folder)
            worst += [f for f in mine if percent(f["line_covered"], f["line_total"]) < floor]
    worst.sort(key=lambda f: (percent(f["line_covered"], f["line_total"]), f["filename"]))
    if worst:
        print("files under their folder's floor, worst first:")
        for f in worst[:WORST_SHOWN]:
            print("  %-40s %5.1f%%  (%d of %d lines not run)" % (
                f["filename"], percent(f["line_covered"], f["line_total"]),
                f["line_total"] - f["line_covered"], f["line_total"]))
        if len(worst) > WORST_SHOWN:
            print("  ... and %d more (see the HTML report)" % (len(worst) - WORST_SHOWN))
    return 1 if below_floor else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
