#!/usr/bin/env python3
"""Opens drainsim's report.html in headless Chromium and checks what a reader would see.

    check_report.py --drainsim BIN --scenario SCENARIO.json --out DIR [--expect-charts a,b,...]
        runs `drainsim run SCENARIO --format html --out DIR`, then checks DIR/report.html
    check_report.py --html PAGE.html --out DIR --expect-failure
        checks PAGE and succeeds only if the checks find both a console message and a chart
        without data in it: the self-test that proves the checks can fail

Checks, each with the real browser (Chromium 1xx):
  1. a screenshot (--screenshot, 1280x2400) is written to DIR/report.png: a PNG of that size and
     of a non-trivial number of bytes (a blank page compresses to a few kilobytes);
  2. the page raised no console message: with --enable-logging=stderr Chromium logs each console
     message of the page, log or error alike, as "...:INFO:CONSOLE:LINE] "TEXT", source: URL (LINE)"
     (older builds: "CONSOLE(LINE)"). The report's only script is its interactive layer
     (reports/html_interactive.h), which logs nothing unless it fails, so any message from the
     page - an uncaught exception, a console.error - is a failure. Chromium's own noise on stderr
     (dbus, GPU, sandbox) is ignored;
  3. in the DOM after load (--dump-dom), every <svg data-chart=NAME> holds at least one
     <path class="series"> with a non-empty d (the SVG drawings stay in the DOM, hidden, when the
     interactive layer draws the charts), the expected charts are all there, and nothing points
     outside the file (no src or href attribute, no <link>, no external script).

Exit status: 0 pass, 1 fail, 77 skipped (no Chromium: ctest shows the test as skipped by name,
via SKIP_RETURN_CODE). Only the standard library is used.
"""

import argparse
import html.parser
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

SKIP = 77
CHROMIUM_NAMES = ("chromium", "chromium-browser")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
CHROMIUM_TIMEOUT_S = 180
WINDOW = (1280, 2400)
SCREENSHOT_BYTES_MIN = 40_000

# "[123:456:1129/221006.033976:INFO:CONSOLE:1] "text", source: file:///x.html (1)"
CONSOLE_RE = re.compile(r':CONSOLE(?::\d+|\(\d+\))?\]\s*(?P<text>.*?)(?:, source: (?P<source>\S*) \(\d+\))?\s*$')


def find_chromium():
    override = os.environ.get("DRAINSIM_CHROMIUM")
    if override:
        return shutil.which(override)
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def chromium_and_fresh_dir(out):
    """(the Chromium binary, `out` emptied and created), or (None, None) after saying the test is
    skipped because Chromium is not installed."""
    chromium = find_chromium()
    if chromium is None:
        print("SKIPPED: chromium not installed (tools/test installs the Debian package "
              "`chromium` when it can)")
        return None, None
    out_dir = Path(out).resolve()
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    return chromium, out_dir


def run_chromium(chromium, args, profile):
    command = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args]
    print("+ " + " ".join(command), flush=True)
    return subprocess.run(command, capture_output=True, text=True, errors="replace",
                          timeout=CHROMIUM_TIMEOUT_S)


def png_size(data):
    """(width, height) of a PNG, or None if `data` is not one."""
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


class DomCheck(html.parser.HTMLParser):
    """Charts and their series, and anything that would make the page fetch."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.charts = {}  # name -> [d of each path.series]
        self.chart_stack = []  # the data-chart of each open <svg> (None for other svgs)
        self.external = []

    def handle_starttag(self, tag, attrs):
        self._start(tag, dict(attrs))

    def handle_startendtag(self, tag, attrs):
        self._start(tag, dict(attrs))
        if tag == "svg":
            self.chart_stack.pop()

    def _start(self, tag, attrs):
        if tag == "svg":
            name = attrs.get("data-chart")
            self.chart_stack.append(name)
            if name is not None:
                self.charts.setdefault(name, [])
        elif tag == "path" and "series" in (attrs.get("class") or "").split():
            open_charts = [c for c in self.chart_stack if c is not None]
            if open_charts:
                self.charts[open_charts[-1]].append(attrs.get("d") or "")
        for attribute in ("src", "href", "xlink:href", "srcset", "poster", "data"):
            if attrs.get(attribute):
                self.external.append(f"<{tag} {attribute}={attrs[attribute]!r}>")
        if tag in ("link", "img", "iframe", "object", "embed"):
            self.external.append(f"<{tag}>")

    def handle_endtag(self, tag):
        if tag == "svg" and self.chart_stack:
            self.chart_stack.pop()


def check_page(chromium, page, out_dir, expect_charts):
    """Returns a list of (kind, problem) pairs; empty iff the page passes."""
    problems = []
    url = page.resolve().as_uri()
    profile = out_dir / "chromium-profile"

    screenshot = out_dir / "report.png"
    if screenshot.exists():
        screenshot.unlink()
    shot = run_chromium(chromium, [f"--screenshot={screenshot}",
                                   f"--window-size={WINDOW[0]},{WINDOW[1]}", url], profile)
    if not screenshot.exists():
        problems.append(("screenshot", f"no screenshot written (exit {shot.returncode}):\n"
                         + shot.stderr[-2000:]))
    else:
        data = screenshot.read_bytes()
        size = png_size(data)
        if size != WINDOW:
            problems.append(("screenshot", f"{screenshot} is not a {WINDOW} PNG: {size}"))
        if len(data) < SCREENSHOT_BYTES_MIN:
            problems.append(("screenshot", f"{screenshot} is only {len(data)} bytes: blank?"))
        print(f"screenshot: {screenshot} ({len(data)} bytes, {size})")

    dom = run_chromium(chromium, ["--enable-logging=stderr", "--v=0", "--dump-dom", url], profile)
    if dom.returncode != 0 or "<html" not in dom.stdout:
        problems.append(("dom", f"--dump-dom failed (exit {dom.returncode}):\n"
                         + dom.stderr[-2000:]))
        return problems

    for line in dom.stderr.splitlines():
        match = CONSOLE_RE.search(line)
        if not match:
            continue
        source = match.group("source")
        if source and not source.startswith("file:"):
            print(f"ignored console message from {source}: {match.group('text')}")
            continue
        problems.append(("console", f"console message from the page: {line.strip()}"))

    checker = DomCheck()
    checker.feed(dom.stdout)
    checker.close()
    if not checker.charts:
        problems.append(("chart", "no <svg data-chart=...> in the page"))
    for name, paths in sorted(checker.charts.items()):
        with_data = [d for d in paths if d.strip()]
        print(f"chart {name}: {len(paths)} series, {len(with_data)} with data")
        if not with_data:
            problems.append(("chart", f"chart {name!r} has no path.series with data"))
    for name in expect_charts:
        if name not in checker.charts:
            problems.append(("chart", f"chart {name!r} is missing"))
    for reference in checker.external:
        problems.append(("external", f"the page refers outside itself: {reference}"))
    shutil.rmtree(profile, ignore_errors=True)
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drainsim", help="the drainsim binary; with --scenario")
    parser.add_argument("--scenario", help="the scenario to run")
    parser.add_argument("--html", help="check this page instead of running drainsim")
    parser.add_argument("--out", required=True, help="directory for report.html and report.png")
    parser.add_argument("--expect-charts", default="", help="comma-separated data-chart names")
    parser.add_argument("--expect-failure", action="store_true",
                        help="succeed iff a console message and a chart without data are found")
    args = parser.parse_args()
    if bool(args.html) == bool(args.drainsim and args.scenario):
        parser.error("give either --html, or --drainsim and --scenario")

    chromium, out_dir = chromium_and_fresh_dir(args.out)
    if chromium is None:
        return SKIP
    if args.html:
        page = Path(args.html)
    else:
        command = [args.drainsim, "run", args.scenario, "--format", "html", "--out", str(out_dir)]
        print("+ " + " ".join(command), flush=True)
        run = subprocess.run(command, capture_output=True, text=True)
        # 1 (an expectation failed) still writes the report; 2 is bad input.
        if run.returncode not in (0, 1):
            print(f"FAIL: drainsim exited {run.returncode}:\n{run.stderr}")
            return 1
        page = out_dir / "report.html"
        if not page.exists():
            print(f"FAIL: drainsim wrote no {page}")
            return 1
        print(f"report: {page} ({page.stat().st_size} bytes)")

    expect_charts = [name for name in args.expect_charts.split(",") if name]
    problems = check_page(chromium, page, out_dir, expect_charts)
    for kind, problem in problems:
        print(f"{'found' if args.expect_failure else 'FAIL'} ({kind}): {problem}")
    if args.expect_failure:
        kinds = {kind for kind, _ in problems}
        missing = {"console", "chart"} - kinds
        if missing:
            print(f"FAIL: the checks missed the page's deliberate problems: {sorted(missing)}")
            return 1
        print("PASS: the checks caught the broken page")
        return 0
    if problems:
        return 1
    print(f"PASS: {page} loads in {chromium} without console messages, every chart has data")
    return 0


if __name__ == "__main__":
    sys.exit(main())
