#!/usr/bin/env python3
"""The include arrows between layers (issue 15, step 5): reads every `#include "..."` of the
product code and fails on an arrow the layer map forbids.

    include_arrows.py ROOT          check the tree at ROOT (exit 0 green, 1 a failure)
    include_arrows.py --self-test   check the checker on made-up trees

The layer map (README.md, section Layout, says the same):

    layer        folder            may include
    base         sim/base/         base: check.h and what it needs, below every layer
    engine       sim/engine/       base, engine
    config       sim/config/       base, engine, config: the typed configuration
    scenario     sim/scenario/     base, engine, config, scenario
    model        sim/model/        base, engine, config, model
    telemetry    sim/telemetry/    base, telemetry: telemetry files read (OTLP/JSON), an input
                                   layer like the scenario format, for `drainsim fit`
    chaos        chaos/            base, engine, config, scenario, model, chaos
    results      experiments/results/   base, config, results: what the experiments compute
                                   and reports render (Statistics, each experiment's results)
    reports      reports/          base, config, model, results, reports
    experiments  experiments/      anything below: base, engine, config, scenario, model,
                                   telemetry, chaos, results, reports
    live         live/             anything but the CLI
    cli          tools/drainsim/   anything
    tools        tools/bench/, tools/fuzz/,  anything but the CLI (and tests/ for fuzz's
                 tools/docs/       shared XML checker)
    python       python/           the Python module: anything below the CLI but live

So: every layer may use the base (DRAINSIM_CHECK), which includes nothing above it; the engine
knows nothing above it; the configuration is plain data over the engine's time types; the model
reads its configuration but no scenario-file code, reports, CLI or live; reports read results
and the configuration, not the engine nor file-format code; nothing but the CLI
includes the CLI. The results layer (issue 15 step 4) is below reports, so that a renderer in
reports/ reads an experiment's result without including the experiment that computes it (a
reports -> experiments arrow would point up). A file outside these folders is not checked; an include outside them (a
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
    ("sim/config/", "config"),
    ("sim/scenario/", "scenario"),
    ("sim/model/", "model"),
    ("sim/telemetry/", "telemetry"),
    ("chaos/", "chaos"),
    ("reports/", "reports"),
    ("experiments/results/", "results"),
    ("experiments/", "experiments"),
    ("live/", "live"),
    ("tools/drainsim/", "cli"),
    ("tools/bench/", "tools"),
    ("tools/fuzz/", "tools"),
    ("tools/docs/", "tools"),
    ("python/", "python"),
    ("tests/", "tests"),
]
CHECKED = ["sim", "chaos", "reports", "experiments", "live", "tools/drainsim", "tools/bench",
           "tools/fuzz", "tools/docs", "python"]

ALLOWED = {  # every layer may include the base
    layer: {"base"} | above
    for layer, above in {
        "base": set(),
        "engine": {"engine"},
        "config": {"engine", "config"},
        "scenario": {"engine", "config", "scenario"},
        "model": {"engine", "config", "model"},
        "telemetry": {"telemetry"},
        "chaos": {"engine", "config", "scenario", "model", "chaos"},
        "results": {"config", "results"},
        "reports": {"config", "model", "results", "reports"},
        "experiments": {"engine", "config", "scenario", "model", "telemetry", "chaos", "results",
                        "reports", "experiments"},
        "live": {"engine", "config", "scenario", "model", "telemetry", "chaos", "results",
                 "reports", "experiments", "live"},
        "cli": {"engine", "config", "scenario", "model", "telemetry", "chaos", "results",
                "reports", "experiments", "live", "cli"},
        "tools": {"engine", "config", "scenario", "model", "telemetry", "chaos", "results",
                  "reports", "experiments", "live", "tools", "tests"},
        "python": {"engine", "config", "scenario", "model", "telemetry", "chaos", "results",
                   "reports", "experiments", "python"},
    }.items()
}

ALLOWLIST = {}  # empty since issue 15 steps 1 and 4: no arrow the map forbids is left

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
        "sim/config/config.h": ["sim/engine/time.h", "sim/config/faults.h"],
        "sim/model/world.h": ["sim/engine/rng.h", "sim/config/config.h", "sim/scenario/load.h"],
        "reports/metrics.cc": ["sim/model/results.h", "sim/config/enum_names.h",
                               "sim/base/check.h"],
        "live/plan.cc": ["experiments/runner.h", "sim/model/world.h"],
        "experiments/results/tune_result.h": ["experiments/results/statistics.h",
                                              "sim/config/expect.h"],
        "reports/table.cc": ["experiments/results/statistics.h", "reports/metrics.h"],
        "python/module.cc": ["experiments/runner.h", "reports/version.h", "python/bindings.h"],
        "sim/telemetry/otlp_read.cc": ["sim/telemetry/otlp_read.h", "sim/base/expected.h"],
        "experiments/fit.cc": ["sim/telemetry/otlp_read.h", "experiments/results/fit_result.h"],
    }
    allow = {("sim/model/world.h", "sim/scenario/load.h"): "step 1"}
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
        ("config -> model", "sim/config/config.h", "sim/model/world.h"),
        ("config -> scenario", "sim/config/config.h", "sim/scenario/load.h"),
        ("engine -> config", "sim/engine/rng.h", "sim/config/config.h"),
        ("base -> engine", "sim/base/check.h", "sim/engine/rng.h"),
        ("reports -> engine", "reports/metrics.cc", "sim/engine/rng.h"),
        ("reports -> the whole scenario", "reports/metrics.cc", "sim/scenario/load.h"),
        ("live -> cli", "live/plan.cc", "tools/drainsim/cli.h"),
        ("reports -> experiments", "reports/table.cc", "experiments/tune.h"),
        ("results -> experiments", "experiments/results/tune_result.h", "experiments/runner.h"),
        ("results -> model", "experiments/results/tune_result.h", "sim/model/results.h"),
        ("an unknown folder", "live/plan.cc", "vendor/thing.h"),
        ("python -> cli", "python/module.cc", "tools/drainsim/cli.h"),
        ("python -> live", "python/module.cc", "live/plan.h"),
        ("telemetry -> scenario", "sim/telemetry/otlp_read.cc", "sim/scenario/load.h"),
        ("reports -> telemetry", "reports/table.cc", "sim/telemetry/otlp_read.h"),
    ]:
        grown = {p: list(t) for p, t in tree.items()}
        grown[path].append(target)
        expect(f"a new {name} arrow fails", grown, allow, f"{path} includes {target}")
    shrunk = {p: [t for t in ts if t != "sim/scenario/load.h"] for p, ts in tree.items()}
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
