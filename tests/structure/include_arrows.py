#!/usr/bin/env python3
"""The include arrows between layers (issue 15, step 5): reads every `#include "..."` of the
product code and fails on an arrow the layer map forbids.

    include_arrows.py ROOT          check the tree at ROOT (exit 0 green, 1 a failure)
    include_arrows.py --self-test   check the checker on made-up trees

The layer map (README.md, section Layout, says the same):

    layer        folder            may include
    base         sim/base/         base: check.h and what it needs, below every layer
    engine       sim/engine/       base, engine
    scenario     sim/scenario/     base, engine, scenario
    model        sim/model/        base, engine, model
    chaos        chaos/            base, engine, scenario, model, chaos
    results      experiments/results/   base, results, and the scenario's typed expectations
                                   and names (REPORTS_MAY_READ below): the experiments' results
    reports      reports/          base, model, results, reports, and of the scenario only the
                                   typed expectations and names (REPORTS_MAY_READ below)
    experiments  experiments/      anything below: base, engine, scenario, model, chaos, results,
                                   reports
    live         live/             anything but the CLI
    cli          tools/drainsim/   anything
    tools        tools/bench/, tools/fuzz/   anything but the CLI (and tests/ for fuzz's
                                   shared XML checker)

So: every layer may use the base (DRAINSIM_CHECK), which includes nothing above it; the engine
knows nothing above it; the model reads no scenario-file code, reports, CLI or live; reports
read results, not the engine nor the whole Scenario nor file-format code; nothing but the CLI
includes the CLI. The results layer (issue 15 step 4) holds what the experiments compute and
reports render (Statistics, each experiment's result types): below reports, so that a renderer
in reports/ reads an experiment's result without including the experiment that computes it
(a reports -> experiments arrow would point up). A file outside these folders is not checked; an include outside them (a
system header in quotes, a generated file) fails, so that a new folder gets a layer on purpose.

Today's tree breaks the map in known places. ALLOWLIST below names each (including file,
included file) pair with the issue-15 step that removes it. The test fails on a forbidden
arrow not in the list AND on a listed pair that is no longer in the tree: the list only
shrinks (delete the line in the commit that removes the include).
"""

import os
import re
import sys

LAYERS = [  # (folder prefix, layer); the first match wins
    ("sim/base/", "base"),
    ("sim/engine/", "engine"),
    ("sim/scenario/", "scenario"),
    ("sim/model/", "model"),
    ("chaos/", "chaos"),
    ("reports/", "reports"),
    ("experiments/results/", "results"),
    ("experiments/", "experiments"),
    ("live/", "live"),
    ("tools/drainsim/", "cli"),
    ("tools/bench/", "tools"),
    ("tools/fuzz/", "tools"),
    ("tests/", "tests"),
]
CHECKED = ["sim", "chaos", "reports", "experiments", "live", "tools/drainsim", "tools/bench",
           "tools/fuzz"]

ALLOWED = {  # every layer may include the base
    layer: {"base"} | above
    for layer, above in {
        "base": set(),
        "engine": {"engine"},
        "scenario": {"engine", "scenario"},
        "model": {"engine", "model"},
        "chaos": {"engine", "scenario", "model", "chaos"},
        "results": {"results"},
        "reports": {"model", "results", "reports"},
        "experiments": {"engine", "scenario", "model", "chaos", "results", "reports",
                        "experiments"},
        "live": {"engine", "scenario", "model", "chaos", "results", "reports", "experiments",
                 "live"},
        "cli": {"engine", "scenario", "model", "chaos", "results", "reports", "experiments",
                "live", "cli"},
        "tools": {"engine", "scenario", "model", "chaos", "results", "reports", "experiments",
                  "live", "tools", "tests"},
    }.items()
}
# Of the scenario, reports may read the expectations they judge and the names they print:
# the typed vocabulary that issue 15 step 1 turns into the model's own configuration.
REPORTS_MAY_READ = {
    "sim/scenario/scenario_expect.h",
    "sim/scenario/scenario_enums.h",
    "sim/scenario/enum_names.h",
}

S1 = "step 1: the typed configuration becomes the model's own (sim/config), not sim/scenario"
S2 = "step 2: fault windows come from the fault descriptors, not the Scenario"
ALLOWLIST = {
    # model -> scenario (16 includes in 15 files)
    ("sim/model/backoff.h", "sim/scenario/scenario_retry.h"): S1,
    ("sim/model/durations.h", "sim/scenario/engine_distribution.h"): S1,
    ("sim/model/durations.h", "sim/scenario/scenario_distribution.h"): S1,
    ("sim/model/keys.h", "sim/scenario/scenario_workload.h"): S1,
    ("sim/model/message.h", "sim/scenario/scenario_enums.h"): S1,
    ("sim/model/observer.h", "sim/scenario/scenario_enums.h"): S1,
    ("sim/model/results.h", "sim/scenario/scenario_enums.h"): S1,
    ("sim/model/retry_after.h", "sim/scenario/scenario_enums.h"): S1,
    ("sim/model/simulation.h", "sim/scenario/scenario.h"): S1,
    ("sim/model/trace_log.cc", "sim/scenario/enum_names.h"): S1,
    ("sim/model/trace_log.h", "sim/scenario/scenario.h"): S1,
    ("sim/model/world.h", "sim/scenario/scenario.h"): S1,
    ("sim/model/world_attempt.cc", "sim/scenario/enum_names.h"): S1,
    ("sim/model/world_broker.cc", "sim/scenario/enum_names.h"): S1,
    ("sim/model/world_faults.cc", "sim/scenario/enum_names.h"): S1,
    ("sim/model/world_metrics.cc", "sim/scenario/enum_names.h"): S1,
    # reports -> scenario beyond the expectations and names (1)
    ("reports/scenario_marks.h", "sim/scenario/scenario.h"): S2,
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
SOURCE = (".h", ".cc", ".cpp", ".hpp", ".in")


def layer_of(path):
    for prefix, layer in LAYERS:
        if path.startswith(prefix):
            return layer
    return None


def read_includes(root):
    """{relative file: [included paths]} for every source file under CHECKED."""
    found = {}
    for top in CHECKED:
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if name.endswith(SOURCE):
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8", errors="replace") as source:
                        found[os.path.relpath(path, root)] = INCLUDE.findall(source.read())
    return found


def forbidden_arrows(includes):
    """Sorted [(file, included, why)] of every arrow the layer map forbids."""
    bad = []
    for path, targets in sorted(includes.items()):
        source = layer_of(path)
        for target in targets:
            layer = layer_of(target)
            if layer is None:
                bad.append((path, target, "an include outside every layer"))
            elif source in ("reports", "results") and target in REPORTS_MAY_READ:
                continue
            elif layer not in ALLOWED[source]:
                bad.append((path, target, f"{source} -> {layer}"))
    return bad


def judge(includes, allowlist):
    """Returns (messages, counts per arrow); no message means green."""
    bad = forbidden_arrows(includes)
    seen = {(path, target) for path, target, _ in bad}
    messages = [f"forbidden include: {path} includes {target} ({why})"
                for path, target, why in bad if (path, target) not in allowlist]
    messages += [f"allowlisted include gone: {path} no longer includes {target} ({step}): "
                 f"delete its line from ALLOWLIST in tests/structure/include_arrows.py"
                 for (path, target), step in sorted(allowlist.items())
                 if (path, target) not in seen]
    counts = {}
    for _, _, why in bad:
        counts[why] = counts.get(why, 0) + 1
    return messages, counts


def self_test():
    tree = {
        "sim/base/check.h": ["sim/base/coverage.h"],
        "sim/engine/rng.h": ["sim/engine/time.h", "sim/base/check.h"],
        "sim/model/world.h": ["sim/engine/rng.h", "sim/scenario/scenario.h"],
        "reports/metrics.cc": ["sim/model/results.h", "sim/scenario/enum_names.h",
                               "sim/base/check.h"],
        "live/plan.cc": ["experiments/runner.h", "sim/model/world.h"],
        "experiments/results/tune_result.h": ["experiments/results/statistics.h",
                                              "sim/scenario/scenario_expect.h"],
        "reports/table.cc": ["experiments/results/statistics.h", "reports/metrics.h"],
    }
    allow = {("sim/model/world.h", "sim/scenario/scenario.h"): "step 1"}
    failures = []

    def expect(name, tree, allow, wanted):
        messages, _ = judge(tree, allow)
        if not any(wanted in m for m in messages) if wanted else messages:
            failures.append(f"{name}: got {messages}")

    expect("today's tree with its allowlist is green", tree, allow, None)
    for name, path, target in [
        ("engine -> model", "sim/engine/rng.h", "sim/model/world.h"),
        ("model -> reports", "sim/model/world.h", "reports/metrics.h"),
        ("model -> live", "sim/model/world.h", "live/plan.h"),
        ("base -> engine", "sim/base/check.h", "sim/engine/rng.h"),
        ("reports -> engine", "reports/metrics.cc", "sim/engine/rng.h"),
        ("reports -> the whole scenario", "reports/metrics.cc", "sim/scenario/load.h"),
        ("reports -> experiments", "reports/metrics.cc", "experiments/tune.h"),
        ("results -> experiments", "experiments/results/tune_result.h", "experiments/runner.h"),
        ("results -> model", "experiments/results/tune_result.h", "sim/model/world.h"),
        ("live -> cli", "live/plan.cc", "tools/drainsim/cli.h"),
        ("an unknown folder", "live/plan.cc", "vendor/thing.h"),
    ]:
        grown = {p: list(t) for p, t in tree.items()}
        grown[path].append(target)
        expect(f"a new {name} arrow fails", grown, allow, f"{path} includes {target}")
    shrunk = {p: [t for t in ts if t != "sim/scenario/scenario.h"] for p, ts in tree.items()}
    expect("a vanished allowlisted arrow fails", shrunk, allow, "allowlisted include gone")
    for failure in failures:
        print(f"self-test FAILED: {failure}")
    print(f"self-test: {'failed' if failures else 'the checker catches every case'}")
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    includes = read_includes(argv[1])
    messages, counts = judge(includes, ALLOWLIST)
    total = sum(len(t) for t in includes.values())
    print(f"include arrows: {total} includes in {len(includes)} files; forbidden arrows today, "
          f"all allowlisted unless listed below:")
    for why, count in sorted(counts.items()):
        print(f"  {why}: {count}")
    for message in messages:
        print(message)
    return 1 if messages else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
