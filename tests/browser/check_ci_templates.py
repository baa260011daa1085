#!/usr/bin/env python3
"""Checks the CI templates of tools/ci/ against this drainsim.

    check_ci_templates.py --source DIR --drainsim BIN
        text checks (each rehearsal template builds the Debian package once with tools/package,
        installs it in the rehearsal job and runs `drainsim run ...`, publishes the summary, the
        JUnit report and out/ whatever the outcome; each retry-policy gate template compares
        the base branch's scenario with the change's, `drainsim compare ... --fail-if-worse
        ...`, and keeps comment.md whatever the outcome), then runs the templates' drainsim
        commands with this binary and checks they write the files the later steps read (the
        gate's: the default scenario against itself, which must pass)
    check_ci_templates.py --source DIR --yaml
        parses the templates as YAML and checks their structure; exits 77 (skipped) when
        python3-yaml is not installed

Exit status: 0 pass, 1 fail, 77 skipped. Only the standard library is required.
"""

import argparse
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77
GITHUB = "tools/ci/github-monthly-rehearsal.yml"
GITLAB = "tools/ci/gitlab-monthly-rehearsal.yml"
DEFAULT_SCENARIO = "scenarios/monthly-rehearsal.json"
FORMATS = {"json", "md", "junit", "html", "csv"}
# The files the steps after the rehearsal read.
FILES_USED = ("report.md", "junit.xml", "report.html")
GATE_GITHUB = "tools/ci/github-retry-policy-gate.yml"
GATE_GITLAB = "tools/ci/gitlab-retry-policy-gate.yml"
GATE_METRICS = {"duplicate_executions", "time_to_empty_s"}
# Replications for the check's own run of the gate command: the template's count would take
# minutes; the command line is otherwise the template's.
GATE_CHECK_REPLICATIONS = "2"

problems = []


def check(condition, message):
    if not condition:
        problems.append(message)
    return condition


REHEARSE = 'drainsim run "$SCENARIO"'
# The package job's command and the install of its artifact in the job that rehearses.
PACKAGE = "tools/package"
INSTALL = "apt-get install -y -qq --no-install-recommends ./"


def rehearsal_command(text, path):
    """The `drainsim run ...` command of a template, split as a shell would."""
    lines = [line for line in text.splitlines() if REHEARSE in line]
    if not check(len(lines) == 1, f"{path}: expected one `{REHEARSE}` line, found {len(lines)}"):
        return None
    command = lines[0][lines[0].index("drainsim run"):]
    args = shlex.split(command)
    check(args[:2] == ["drainsim", "run"], f"{path}: the command is not `drainsim run`: {command}")
    check(args[2:3] == ["$SCENARIO"], f"{path}: the scenario is not \"$SCENARIO\": {command}")
    if check("--format" in args, f"{path}: no --format in {command}"):
        formats = set(args[args.index("--format") + 1].split(","))
        check(FORMATS <= formats, f"{path}: --format lacks {sorted(FORMATS - formats)}")
    check("--out" in args and args[args.index("--out") + 1].rstrip("/") == "out",
          f"{path}: --out is not out/")
    return args


def text_checks(source, drainsim):
    github = (source / GITHUB).read_text()
    gitlab = (source / GITLAB).read_text()
    for path, text, needles in (
        (GITHUB, github, ["schedule:", "cron:", "workflow_dispatch", "container: debian:12",
                          "GITHUB_STEP_SUMMARY", "out/report.md", "mikepenz/action-junit-report@v",
                          "report_paths: out/junit.xml", "actions/upload-artifact@v",
                          "actions/download-artifact@v", "needs: package", "path: out/",
                          "actions/checkout@v", "run: " + PACKAGE,
                          INSTALL + "deb/drainsim_*.deb", DEFAULT_SCENARIO]),
        (GITLAB, gitlab, ['$CI_PIPELINE_SOURCE == "schedule"', "image: debian:12",
                          "when: always", "junit: out/junit.xml", "- out/", "out/report.md",
                          "- " + PACKAGE, "needs: [drainsim-package]", "- build/drainsim_*.deb",
                          INSTALL + "build/drainsim_*.deb", DEFAULT_SCENARIO]),
    ):
        for needle in needles:
            check(needle in text, f"{path}: does not mention {needle!r}")
        # Built once, by the package job: no job builds drainsim from source any more.
        check("tools/run" not in text, f"{path}: a job still builds with tools/run")
    # Summary, JUnit and artifact steps must run after a failed rehearsal too.
    check(github.count("if: always()") >= 3, f"{GITHUB}: fewer than 3 steps with if: always()")
    check((source / DEFAULT_SCENARIO).is_file(), f"{DEFAULT_SCENARIO} does not exist")

    commands = [rehearsal_command(github, GITHUB), rehearsal_command(gitlab, GITLAB)]
    if None in commands:
        return
    check(commands[0] == commands[1], f"the templates run different commands: {commands}")

    # The command itself, with this binary in place of tools/run (which would build one).
    with tempfile.TemporaryDirectory(prefix="drainsim-ci-") as out:
        args = [drainsim] + commands[0][1:]  # the installed drainsim's arguments, as they are
        args[2] = DEFAULT_SCENARIO
        args[args.index("--out") + 1] = out
        print("+ " + " ".join(args), flush=True)
        run = subprocess.run(args, cwd=source, capture_output=True, text=True)
        check(run.returncode in (0, 1),
              f"the templates' command exited {run.returncode}:\n{run.stderr}")
        for name in FILES_USED:
            check((Path(out) / name).is_file(), f"the templates' command wrote no {name}")


def gate_command(text, path):
    """The `tools/run compare ...` command of a gate template, split as a shell would."""
    lines = [line for line in text.splitlines() if "tools/run compare" in line]
    if not check(len(lines) == 1, f"{path}: expected one `tools/run compare` line, found {len(lines)}"):
        return None
    command = lines[0][lines[0].index("tools/run"):]
    args = shlex.split(command)
    check(args[2:4] == ["out/base/scenario.json", "$SCENARIO"],
          f"{path}: the compared scenarios are not the base's and \"$SCENARIO\": {command}")
    for option, value in (("--fail-if-worse", "$GATE_METRICS"), ("--format", "markdown"),
                          ("--replications", "$REPLICATIONS")):
        check(option in args and args[args.index(option) + 1] == value,
              f"{path}: {option} is not {value}: {command}")
    check("--out" in args and args[args.index("--out") + 1].rstrip("/") == "out",
          f"{path}: --out is not out/")
    return args


def gate_text_checks(source, drainsim):
    github = (source / GATE_GITHUB).read_text()
    gitlab = (source / GATE_GITLAB).read_text()
    for path, text, needles in (
        (GATE_GITHUB, github, ["pull_request:", "container: debian:12", "fetch-depth: 0",
                               "github.base_ref", "out/comment.md", "GITHUB_STEP_SUMMARY",
                               "gh pr comment", "pull-requests: write",
                               "actions/upload-artifact@v", "path: out/", DEFAULT_SCENARIO]),
        (GATE_GITLAB, gitlab, ['$CI_PIPELINE_SOURCE == "merge_request_event"', "image: debian:12",
                               "CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "when: always", "- out/",
                               "out/comment.md", DEFAULT_SCENARIO]),
    ):
        for needle in needles:
            check(needle in text, f"{path}: does not mention {needle!r}")
        metrics = [line.split(":", 1)[1].strip() for line in text.splitlines()
                   if line.strip().startswith("GATE_METRICS:")]
        check(len(metrics) == 1 and set(metrics[0].split(",")) == GATE_METRICS,
              f"{path}: GATE_METRICS is not {sorted(GATE_METRICS)}: {metrics}")
    check(github.count("if: always()") >= 3, f"{GATE_GITHUB}: fewer than 3 steps with if: always()")

    commands = [gate_command(github, GATE_GITHUB), gate_command(gitlab, GATE_GITLAB)]
    if None in commands:
        return
    check(commands[0] == commands[1], f"the gate templates run different commands: {commands}")

    # The command with this binary: the default scenario as both base and change (a change that
    # changes nothing must pass the gate), and the metrics and options of the template.
    with tempfile.TemporaryDirectory(prefix="drainsim-gate-") as out:
        values = {"out/base/scenario.json": DEFAULT_SCENARIO, "$SCENARIO": DEFAULT_SCENARIO,
                  "$GATE_METRICS": ",".join(sorted(GATE_METRICS)),
                  "$REPLICATIONS": GATE_CHECK_REPLICATIONS}
        args = [drainsim] + [values.get(a, a) for a in commands[0][1:]]
        args[args.index("--out") + 1] = out
        print("+ " + " ".join(args), flush=True)
        run = subprocess.run(args, cwd=source, capture_output=True, text=True)
        check(run.returncode == 0,
              f"the gate's command exited {run.returncode} on an unchanged scenario:\n{run.stderr}")
        comment = Path(out) / "comment.md"
        if check(comment.is_file(), "the gate's command wrote no comment.md"):
            text = comment.read_text()
            check(run.stdout == text, "with --format markdown, stdout is not comment.md")
            check("Gate passed" in text, f"comment.md does not say the gate passed:\n{text}")
            for metric in GATE_METRICS:
                check(f"`{metric}` (gate)" in text, f"comment.md does not judge {metric}:\n{text}")


def gate_yaml_checks(source, yaml):
    github = yaml.safe_load((source / GATE_GITHUB).read_text())
    gitlab = yaml.safe_load((source / GATE_GITLAB).read_text())
    on = github.get("on", github.get(True))
    check("pull_request" in on, f"{GATE_GITHUB}: not run on pull requests")
    check(github.get("permissions", {}).get("pull-requests") == "write",
          f"{GATE_GITHUB}: commenting needs permissions: pull-requests: write")
    (job,) = github["jobs"].values()
    check(job.get("container") == "debian:12", f"{GATE_GITHUB}: the job does not run in debian:12")
    steps = job["steps"]
    compare = [i for i, s in enumerate(steps) if "tools/run compare" in s.get("run", "")]
    if check(len(compare) == 1, f"{GATE_GITHUB}: expected one compare step"):
        after = steps[compare[0] + 1:]
        check(len(after) >= 3, f"{GATE_GITHUB}: expected summary, comment and artifact steps")
        for step in after:
            check(step.get("if") == "always()",
                  f"{GATE_GITHUB}: step {step.get('name', step.get('uses'))!r} lacks if: always()")
    checkout = [s for s in steps if s.get("uses", "").startswith("actions/checkout@")]
    check(len(checkout) == 1 and checkout[0].get("with", {}).get("fetch-depth") == 0,
          f"{GATE_GITHUB}: the checkout needs fetch-depth: 0 to read the base branch")

    job = gitlab["retry-policy-gate"]
    check(job.get("image") == "debian:12", f"{GATE_GITLAB}: the image is not debian:12")
    check(any(r.get("if") == '$CI_PIPELINE_SOURCE == "merge_request_event"'
              for r in job.get("rules", [])), f"{GATE_GITLAB}: no rule for merge requests")
    artifacts = job.get("artifacts", {})
    check(artifacts.get("when") == "always", f"{GATE_GITLAB}: artifacts are not kept always")
    check("out/" in artifacts.get("paths", []), f"{GATE_GITLAB}: out/ is not an artifact")
    check(any("tools/run compare" in line for line in job.get("script", [])),
          f"{GATE_GITLAB}: the script does not run tools/run compare")


def yaml_checks(source, yaml):
    github = yaml.safe_load((source / GITHUB).read_text())
    gitlab = yaml.safe_load((source / GITLAB).read_text())

    on = github.get("on", github.get(True))  # YAML 1.1 reads a bare `on` as true
    cron = on["schedule"][0]["cron"].split()
    check(len(cron) == 5 and cron[2] != "*" and cron[3] == "*" and cron[4] == "*",
          f"{GITHUB}: the schedule {cron} is not monthly")
    check("workflow_dispatch" in on, f"{GITHUB}: no workflow_dispatch")
    check(github.get("permissions", {}).get("checks") == "write",
          f"{GITHUB}: the JUnit check run needs permissions: checks: write")
    check(set(github["jobs"]) == {"package", "rehearsal"},
          f"{GITHUB}: expected the jobs package and rehearsal, not {sorted(github['jobs'])}")
    package = github["jobs"].get("package", {})
    check(any(s.get("run") == PACKAGE for s in package.get("steps", [])),
          f"{GITHUB}: the package job does not run {PACKAGE}")
    kept = [s for s in package.get("steps", []) if "upload-artifact" in s.get("uses", "")]
    check(len(kept) == 1 and kept[0]["with"]["path"] == "build/drainsim_*.deb",
          f"{GITHUB}: the package job does not keep build/drainsim_*.deb")
    job = github["jobs"].get("rehearsal", {})
    check(job.get("needs") == "package", f"{GITHUB}: the rehearsal does not wait for the package")
    check(job.get("container") == "debian:12", f"{GITHUB}: the job does not run in debian:12")
    steps = job.get("steps", [])
    rehearse = [i for i, s in enumerate(steps) if REHEARSE in s.get("run", "")]
    install = [i for i, s in enumerate(steps) if INSTALL + "deb/drainsim_" in s.get("run", "")]
    check(len(install) == 1 and rehearse and install[0] < rehearse[0],
          f"{GITHUB}: the package is not installed before the rehearsal")
    if check(len(rehearse) == 1, f"{GITHUB}: expected one rehearse step"):
        after = steps[rehearse[0] + 1:]
        check(len(after) >= 3, f"{GITHUB}: expected summary, JUnit and artifact steps")
        for step in after:
            check(step.get("if") == "always()",
                  f"{GITHUB}: step {step.get('name', step.get('uses'))!r} lacks if: always()")
    uses = {s["uses"].split("@")[0]: s for s in steps if "uses" in s}
    junit = uses.get("mikepenz/action-junit-report", {})
    check(junit.get("with", {}).get("report_paths") == "out/junit.xml",
          f"{GITHUB}: the JUnit step does not read out/junit.xml")
    upload = uses.get("actions/upload-artifact", {})
    check(upload.get("with", {}).get("path") == "out/", f"{GITHUB}: the artifact is not out/")

    job = gitlab["monthly-drain-rehearsal"]
    check(job.get("image") == "debian:12", f"{GITLAB}: the image is not debian:12")
    check({"if": '$CI_PIPELINE_SOURCE == "schedule"'} in job.get("rules", []),
          f"{GITLAB}: no rule for scheduled pipelines")
    artifacts = job.get("artifacts", {})
    check(artifacts.get("when") == "always", f"{GITLAB}: artifacts are not kept always")
    check(artifacts.get("reports", {}).get("junit") == "out/junit.xml",
          f"{GITLAB}: reports:junit is not out/junit.xml")
    check("out/" in artifacts.get("paths", []), f"{GITLAB}: out/ is not an artifact")
    check(any(REHEARSE in line for line in job.get("script", [])),
          f"{GITLAB}: the script does not run {REHEARSE}")
    check(job.get("needs") == ["drainsim-package"], f"{GITLAB}: the job does not need the package")
    check(any(INSTALL + "build/drainsim_" in line for line in job.get("before_script", [])),
          f"{GITLAB}: the package is not installed before the script")
    package = gitlab.get("drainsim-package", {})
    check(package.get("script") == [PACKAGE], f"{GITLAB}: drainsim-package does not run {PACKAGE}")
    check(package.get("artifacts", {}).get("paths") == ["build/drainsim_*.deb"],
          f"{GITLAB}: drainsim-package does not keep build/drainsim_*.deb")
    check(package.get("rules") == job.get("rules"),
          f"{GITLAB}: the package job runs in other pipelines than the rehearsal")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", required=True, help="the repository's root")
    parser.add_argument("--drainsim", help="the drainsim binary (text checks and the command)")
    parser.add_argument("--yaml", action="store_true", help="parse the templates as YAML")
    args = parser.parse_args()
    source = Path(args.source)
    for path in (GITHUB, GITLAB, GATE_GITHUB, GATE_GITLAB, "tools/ci/README.md"):
        check((source / path).is_file(), f"{path} does not exist")
    if not problems:
        if args.yaml:
            try:
                import yaml
            except ImportError:
                print("SKIPPED: python3-yaml not installed")
                return SKIP
            yaml_checks(source, yaml)
            gate_yaml_checks(source, yaml)
        else:
            if not args.drainsim:
                parser.error("--drainsim is required without --yaml")
            text_checks(source, args.drainsim)
            gate_text_checks(source, args.drainsim)
    for problem in problems:
        print(f"FAIL: {problem}")
    if problems:
        return 1
    print("PASS: " + ("the templates parse and hold together" if args.yaml
                      else "the templates run a command this drainsim accepts"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
