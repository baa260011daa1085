"""tools/bench/compare's driver: one reference model run four ways, checked, side by side.

Run by tools/bench/compare (which installs packages and builds first) with /usr/bin/python3.
For each c it writes the drainsim scenario, runs drainsim, the hand-written C++ loop and SimPy
in its two common idioms (a process per job; long-lived servers on a Store) with the same
parameters (jobs, lambda, mu, seed), --repeat times each, interleaved; measures each as a
child process (wall time, CPU time and peak RSS, from wait4 in measure_child), checks that
they did the same work, and prints the table (median times) and the jobs/s ratios against the
loop and against the faster SimPy idiom. It ends with the ratio lines of issue 16, one
`drainsim/SimPy: N.Nx` and one `drainsim/hand-written: N.NNx` per c, the workload on which
drainsim is slower (fewer jobs/s) last.

The model is stated in mmc_retries_handwritten.cc and mmc_retries_simpy.py; model.py holds
its parameters, the drainsim scenario and the statistics of the agreement check.

Exit codes: 0 all agree; 1 a figure disagrees (each one named); 2 usage or a run failed.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model  # noqa: E402  (next to this file)

HERE = os.path.dirname(os.path.abspath(__file__))
DEBIAN_PYTHON = "/usr/bin/python3"
LAUNCHER = [None]  # measure_child's path, set by main


def measure(launcher, cmd, out_path, err_path):
    """Runs cmd under measure_child; returns (exit code, wall s, CPU s, peak RSS MiB).

    Not os.wait4 from here: Linux carries the forking process's peak RSS into the child's
    ru_maxrss across exec, so every child of this Python process would show at least its
    ~13 MiB (measure_child.cc says more)."""
    usage_path = out_path + ".usage"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        code = subprocess.call([launcher, usage_path] + cmd, stdout=out, stderr=err)
    if code != 0:
        return code, 0.0, 0.0, 0.0
    u = last_json_line(usage_path)
    return (u["exit_code"], u["wall_s"], u["user_s"] + u["sys_s"],
            u["peak_rss_kib"] / 1024.0)


def run_child(name, cmd, work, tag):
    out_path = os.path.join(work, f"{tag}.stdout")
    err_path = os.path.join(work, f"{tag}.stderr")
    code, wall_s, cpu_s, rss_mib = measure(LAUNCHER[0], cmd, out_path, err_path)
    if code != 0:
        with open(err_path, errors="replace") as f:
            tail = f.read()[-3000:]
        sys.stderr.write(f"compare: {name} failed (exit {code}): {' '.join(cmd)}\n{tail}\n")
        sys.exit(2)
    return {"impl": name, "wall_s": wall_s, "cpu_s": cpu_s, "peak_rss_mib": rss_mib,
            "command": cmd, "stdout": out_path}


def last_json_line(path):
    with open(path) as f:
        lines = [line for line in f if line.strip()]
    return json.loads(lines[-1])


def run_drainsim(binary, params, work, run):
    tag = f"drainsim-c{params['c']}-run{run}"
    scenario_path = os.path.join(work, f"{tag}.json")
    with open(scenario_path, "w") as f:
        json.dump(model.scenario(params), f, indent=2, sort_keys=True)
        f.write("\n")
    check = subprocess.run([binary, "check", scenario_path], capture_output=True, text=True)
    if check.returncode != 0:
        sys.stderr.write(f"compare: drainsim check refused {scenario_path}:\n{check.stderr}")
        sys.exit(2)
    out_dir = os.path.join(work, tag)
    cmd = [binary, "run", scenario_path, "--seed", str(params["seed"]), "--out", out_dir]
    r = run_child("drainsim", cmd, work, tag)
    with open(os.path.join(out_dir, "report.json")) as f:
        report = json.load(f)
    run = report["run"]
    # Every job must have ended (run.until_s leaves an hour of tail for the last retries).
    if run["events_max_reached"] or report["lost"] or report["not_terminal_end"] or \
            report["expired"]:
        sys.stderr.write(f"compare: drainsim's run did not finish cleanly: {run}, lost "
                         f"{report['lost']}, not terminal {report['not_terminal_end']}\n")
        sys.exit(2)
    r.update({
        "jobs": report["published"],
        "completed": report["acked"],
        "dead_lettered": report["dlq_inflow"],
        "attempts": report["attempts"],
        "mean_sojourn_s": report["message_latency_s"]["mean"],
        "sojourn_se_s": None,  # report.json has no spread; the others' pooled one stands in
        "events": run["events"],
        "scenario": scenario_path,
    })
    return r


def run_reference(name, cmd_head, params, work, extra_args, run):
    tag = f"{name}-c{params['c']}-run{run}"
    cmd = cmd_head + model.reference_args(params) + extra_args
    r = run_child(name, cmd, work, tag)
    result = last_json_line(r["stdout"])
    r.update({k: result[k] for k in ("jobs", "completed", "dead_lettered", "attempts",
                                     "mean_sojourn_s", "sojourn_se_s", "events")})
    r["loop_wall_s"] = result["wall_s"]
    return r


# The figures a run reports about the simulation (not its timing): equal in every repeat.
FIGURES = ("jobs", "completed", "dead_lettered", "attempts", "mean_sojourn_s", "events")
# SimPy's two common idioms; compare measures drainsim against the faster on each workload.
SIMPY_IDIOMS = (("SimPy-process", "mmc_retries_simpy.py"),
                ("SimPy-Store", "mmc_retries_simpy_store.py"))


def contenders(args, params):
    """(name, run function of the run number) in run order."""
    extra = [a for arg in args.handwritten_arg for a in arg.split()]
    out = [("drainsim", lambda n: run_drainsim(args.drainsim, params, args.work_dir, n)),
           ("hand-written", lambda n: run_reference("hand-written", [args.handwritten], params,
                                                    args.work_dir, extra, n))]
    if not args.skip_simpy:
        for name, script in SIMPY_IDIOMS:
            cmd = [DEBIAN_PYTHON, os.path.join(HERE, script)]
            out.append((name, lambda n, name=name, cmd=cmd: run_reference(
                name, cmd, params, args.work_dir, [], n)))
    return out


def run_all(args, params):
    """Runs every contender args.repeat times, interleaved, so that a change of load falls on
    all of them alike. Returns one row per contender: its figures (the same in every run, or
    exit 2: all are deterministic), the MEDIAN wall and CPU time, the largest peak RSS, and
    every run's times with the 1-minute load average just before it."""
    runs = {}
    for run in range(1, args.repeat + 1):
        for name, start in contenders(args, params):
            load = os.getloadavg()[0]
            r = start(run)
            r["load_1min"] = load
            runs.setdefault(name, []).append(r)
    rows = []
    for name, rs in runs.items():
        row = dict(rs[0])
        for other in rs[1:]:
            changed = [k for k in FIGURES if other[k] != row[k]]
            if changed:
                sys.stderr.write(f"compare: {name} gave other figures ({', '.join(changed)}) "
                                 f"in a repeat of the same run: not deterministic\n")
                sys.exit(2)
        for key in ("wall_s", "cpu_s", "load_1min"):
            row[key + "_runs"] = [x[key] for x in rs]
        row["wall_s"] = statistics.median(row["wall_s_runs"])
        row["cpu_s"] = statistics.median(row["cpu_s_runs"])
        row["peak_rss_mib"] = max(x["peak_rss_mib"] for x in rs)
        rows.append(row)
    return rows


def ratios_of(rows):
    """drainsim's jobs/s over the loop's and over the faster SimPy idiom's, by wall and CPU."""
    rate = {r["impl"]: r["jobs"] / r["wall_s"] for r in rows}
    cpu_rate = {r["impl"]: r["jobs"] / max(r["cpu_s"], 1e-6) for r in rows}
    simpys = [name for name, _ in SIMPY_IDIOMS if name in rate]
    idiom = max(simpys, key=lambda name: rate[name]) if simpys else None
    against = {"hand-written": "hand-written"}
    if idiom:
        against["SimPy"] = idiom
    return {"jobs_per_s": rate, "simpy_idiom": idiom,
            "ratios": {k: rate["drainsim"] / rate[v] for k, v in against.items()},
            "cpu_ratios": {k: cpu_rate["drainsim"] / cpu_rate[v] for k, v in against.items()}}


def print_ratios(rows, result):
    rate, ratios, idiom = result["jobs_per_s"], result["ratios"], result["simpy_idiom"]
    n = len(rows[0]["wall_s_runs"])
    print(f"  jobs/s by {'median ' if n > 1 else ''}wall time{f' of {n} runs' if n > 1 else ''}"
          ": " + ", ".join(f"{k} {v:,.0f}" for k, v in rate.items())
          + (f"; the faster SimPy idiom: {idiom}" if idiom else ""))
    text = [f"drainsim/SimPy {ratios['SimPy']:.1f}x (against {idiom})"] if idiom else []
    text.append(f"drainsim/hand-written {ratios['hand-written']:.2f}x")
    cpu = result["cpu_ratios"]
    print("  ratios: " + ", ".join(text) + "; by CPU time: "
          + ", ".join(f"drainsim/{k} {v:.2f}x" for k, v in cpu.items()))
    met = [f"drainsim/{k} >= {t}x: {'met' if ratios[k] >= t else 'NOT met'}"
           for k, t in (("SimPy", 25), ("hand-written", 0.5)) if k in ratios]
    print("  targets: " + "; ".join(met))
    loads = [x for r in rows for x in r["load_1min_runs"]]
    print(f"  load average (1 min) before each run: {min(loads):.2f} to {max(loads):.2f}")


def print_summary(results, repeat):
    """The ratio lines of issue 16, one pair per workload, the slower one for drainsim (the
    lower jobs/s) last, so the binding figure closes the output."""
    how = f"median of {repeat} runs each" if repeat > 1 else "one run each"
    print(f"\ncompare: drainsim's ratios by wall time ({how}), the slower workload last:")
    for res in sorted(results, key=lambda x: -x["jobs_per_s"]["drainsim"]):
        idiom = res["simpy_idiom"]
        print(f"c = {res['c']} (drainsim {res['jobs_per_s']['drainsim']:,.0f} jobs/s"
              + (f"; SimPy = {idiom}, the faster idiom here" if idiom else "") + "):")
        if idiom:
            print(f"drainsim/SimPy: {res['ratios']['SimPy']:.1f}x")
        print(f"drainsim/hand-written: {res['ratios']['hand-written']:.2f}x")


def print_table(rows):
    median = len(rows[0]["wall_s_runs"]) > 1
    header = ["implementation", "jobs", "events", "ev/job",
              "median wall s" if median else "wall s", "median cpu s" if median else "cpu s",
              "jobs/s",
              "events/s", "peak RSS MiB", "mean sojourn s", "DLQ"]
    table = [header]
    for r in rows:
        table.append([
            r["impl"], f"{r['jobs']}", f"{r['events']}", f"{r['events'] / r['jobs']:.2f}",
            f"{r['wall_s']:.2f}", f"{r['cpu_s']:.2f}", f"{r['jobs'] / r['wall_s']:,.0f}",
            f"{r['events'] / r['wall_s']:,.0f}", f"{r['peak_rss_mib']:.1f}",
            f"{r['mean_sojourn_s']:.6f}", f"{r['dead_lettered']}"])
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for n, row in enumerate(table):
        cells = [row[0].ljust(widths[0])] + [row[i].rjust(widths[i]) for i in range(1, len(row))]
        print("| " + " | ".join(cells) + " |")
        if n == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")


def build_info(binary):
    """Build type and sanitizer setting of the CMake tree the binary came from, if found."""
    d = os.path.dirname(os.path.abspath(binary))
    while d != os.path.dirname(d):
        cache = os.path.join(d, "CMakeCache.txt")
        if os.path.exists(cache):
            info = {}
            with open(cache) as f:
                for line in f:
                    for key in ("CMAKE_BUILD_TYPE", "DRAINSIM_SANITIZE"):
                        if line.startswith(key + ":"):
                            info[key] = line.split("=", 1)[1].strip()
            return info
        d = os.path.dirname(d)
    return {}


def main(argv):
    parser = argparse.ArgumentParser(
        prog="tools/bench/compare",
        description="Run the M/M/c-with-retries reference model in drainsim, SimPy (two "
                    "idioms) and a hand-written C++ loop; check they agree; print jobs/s, "
                    "events/s, peak RSS.")
    parser.add_argument("--jobs", type=int, default=1_000_000,
                        help="expected arrivals (default 1e6)")
    parser.add_argument("--c", default="8,1000",
                        help="comma-separated server counts (default 8,1000)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed passed to every implementation (default 1)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each implementation, interleaved; the median time "
                             "counts (default 3)")
    parser.add_argument("--skip-simpy", action="store_true",
                        help="run only drainsim and the loop (neither SimPy idiom)")
    parser.add_argument("--no-build", action="store_true",
                        help="install and build nothing; use the binaries as they are")
    parser.add_argument("--drainsim", required=True,
                        help="drainsim binary (default BUILD_DIR/tools/drainsim/drainsim; "
                             "BUILD_DIR is $DRAINSIM_BUILD_DIR, default build/)")
    parser.add_argument("--handwritten", required=True,
                        help="the loop (default BUILD_DIR/tools/bench/mmc_retries_handwritten)")
    parser.add_argument("--measure", required=True,
                        help="the launcher (default BUILD_DIR/tools/bench/measure_child)")
    parser.add_argument("--work-dir", required=True,
                        help="scenarios, outputs, results.json (default BUILD_DIR/bench-compare)")
    parser.add_argument("--handwritten-arg", action="append", default=[],
                        help="extra argument for the hand-written loop (tests use it to show "
                             "that a different model is caught), repeatable")
    args = parser.parse_args(argv)
    try:
        cs = [int(x) for x in args.c.split(",") if x.strip()]
    except ValueError:
        parser.error(f"--c: not a list of integers: {args.c}")
    if not cs or min(cs) < 1 or args.jobs < 100 or not 0 <= args.seed <= 2 ** 53 or \
            args.repeat < 1:
        parser.error("need --jobs >= 100, --c values >= 1, 0 <= --seed <= 2^53, --repeat >= 1")
    for path in (args.drainsim, args.handwritten, args.measure):
        if not os.access(path, os.X_OK):
            parser.error(f"not an executable: {path} (build first, or drop --no-build)")
    os.makedirs(args.work_dir, exist_ok=True)
    LAUNCHER[0] = args.measure

    info = build_info(args.drainsim)
    print(f"compare: jobs {args.jobs}, c {','.join(map(str, cs))}, seed {args.seed}; "
          f"drainsim {args.drainsim} ({info.get('CMAKE_BUILD_TYPE', '?')} build"
          f"{', sanitizers' if info.get('DRAINSIM_SANITIZE') == 'ON' else ''}); "
          f"SimPy via {DEBIAN_PYTHON}" + (" (skipped)" if args.skip_simpy else ""))
    if info.get("CMAKE_BUILD_TYPE") != "Release" or info.get("DRAINSIM_SANITIZE") == "ON":
        print("compare: WARNING: not a plain Release build; timings are not representative")
    print(f"compare: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs before "
          f"the runs (a shared machine makes wall time noisy; CPU time is printed too)")

    all_results, failures = [], []
    for c in cs:
        params = model.parameters(c, args.jobs, args.seed)
        print(f"\n== c = {c}: lambda {params['lambda']:.6f}/s, T {params['until_s']:.3f} s, "
              f"mu {params['mu']}/s, rho {model.RHO} ==")
        rows = run_all(args, params)
        print_table(rows)
        notes, bad = model.check_agreement(rows, params)
        for line in notes:
            print("  " + line)
        result = ratios_of(rows)
        print_ratios(rows, result)
        failures += [f"c = {c}: {b}" for b in bad]
        all_results.append({"c": c, "params": params, "rows": rows, "disagreements": bad,
                            **result})

    with open(os.path.join(args.work_dir, "results.json"), "w") as f:
        json.dump({"jobs": args.jobs, "seed": args.seed, "repeat": args.repeat,
                   "results": all_results}, f, indent=2)
    print_summary(all_results, args.repeat)
    if failures:
        print("\ncompare: the implementations disagree, so the timings do not compare the same "
              "work:")
        for line in failures:
            print("  " + line)
        return 1
    print("\ncompare: all figures agree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
