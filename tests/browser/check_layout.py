#!/usr/bin/env python3
"""Lays drainsim's report.html out in headless Chromium at a desktop and a phone width.

    check_layout.py --drainsim BIN --scenario SCENARIO.json --out DIR [--expect-charts a,b,...]
        runs `drainsim run SCENARIO --format html --out DIR` and checks DIR/report.html
    check_layout.py --html PAGE.html --out DIR --expect-failure
        succeeds only if the checks find overflow, small text and an empty series in PAGE: the
        self-test that proves they can fail

The measurement runs in a wrapper page (DIR/layout.html) that loads the report into iframes,
1400 and 390 CSS px wide (an iframe is a viewport of its own: the report's media queries see its
width), measures each after load and writes the figures into its own DOM, which `--dump-dom`
prints. `--allow-file-access-from-files` lets the wrapper read the report's document, both being
file: URLs. Each width is laid out twice: as a reader with script sees it (the interactive layer's
uPlot charts, reports/html_interactive.h, where the binary has it; check_interactive.py drives
them), and without script (an iframe sandboxed without allow-scripts), where the SVG charts are
the page's charts.

Checks, at each width, with and without script:
  1. no horizontal overflow: document.documentElement.scrollWidth <= innerWidth;
  2. no text in a shown chart smaller than 10 px: in an SVG chart, its computed font size times
     the chart's scale (its drawn width / its viewBox width); in a uPlot chart, its legend's and
     controls' computed font size (its canvas draws axes in uPlot's 12 px font);
  3. every series with data above zero has a drawn line, in the charts shown: an SVG path's
     data-max and non-empty d; a uPlot series' data and the path uPlot keeps once it drew it
     (series._paths, uPlot 1.6's);
  4. at least one chart is shown, and the expected ones are among them.
Exit status: 0 pass, 1 fail, 77 skipped (no Chromium). Only the standard library is used.
"""

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_report import SKIP, chromium_and_fresh_dir, run_chromium  # noqa: E402

WIDTHS = {"desktop": 1400, "phone": 390}
TEXT_PX_MIN = 10.0

WRAPPER = """<!DOCTYPE html>
<html><head><meta charset="utf-8"/></head><body>
%(frames)s
<script>
function measure(frame) {
  const doc = frame.contentDocument, win = frame.contentWindow;
  const out = {inner_width: win.innerWidth, scroll_width: doc.documentElement.scrollWidth,
               shown_charts: [], uplot_charts: [], text_px_min: null, smallest_text: "",
               empty_series: []};
  for (const svg of doc.querySelectorAll("svg[data-chart]")) {
    const box = svg.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;  // display:none (the other drawing)
    out.shown_charts.push(svg.dataset.chart);
    const scale = box.width / svg.viewBox.baseVal.width;
    for (const text of svg.querySelectorAll("text")) {
      if (!text.textContent.trim()) continue;
      const px = parseFloat(win.getComputedStyle(text).fontSize) * scale;
      if (out.text_px_min === null || px < out.text_px_min) {
        out.text_px_min = px;
        out.smallest_text = svg.dataset.chart + ": " + text.textContent;
      }
    }
    for (const path of svg.querySelectorAll("path.series")) {
      const max = parseFloat(path.dataset.max);
      if (max > 0 && !(path.getAttribute("d") || "").trim()) {
        out.empty_series.push(svg.dataset.chart + "/" + path.dataset.series);
      }
    }
  }
  for (const host of doc.querySelectorAll(".chart-host[data-chart]")) {
    const box = host.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const name = host.dataset.chart;
    out.shown_charts.push(name);
    out.uplot_charts.push(name);
    const figure = host.closest("figure");
    for (const text of figure.querySelectorAll(".u-legend th, .u-legend td, .chart-controls *")) {
      if (!text.textContent.trim()) continue;
      const px = parseFloat(win.getComputedStyle(text).fontSize);
      if (out.text_px_min === null || px < out.text_px_min) {
        out.text_px_min = px;
        out.smallest_text = name + ": " + text.textContent;
      }
    }
    const plot = win.drainsimCharts[name].plot;
    plot.series.forEach((series, i) => {
      if (i === 0) return;
      const max = Math.max(...plot.data[i].filter((v) => v != null));
      if (max > 0 && !series._paths) out.empty_series.push(name + "/" + series.label);
    });
  }
  return out;
}
// The wrapper's own load event comes once every frame has loaded; a frame's load event could
// come before this script listens to it (a small file: page loads fast).
function done() {
  const result = {};
  for (const frame of document.querySelectorAll("iframe")) result[frame.id] = measure(frame);
  const pre = document.createElement("pre");
  pre.id = "layout-result";
  pre.textContent = JSON.stringify(result);
  document.body.appendChild(pre);
}
window.addEventListener("load", done);
</script>
</body></html>
"""

RESULT_RE = re.compile(r'<pre id="layout-result">(.*?)</pre>', re.S)


# Each width with script, and without: the sandbox without allow-scripts runs none of the
# report's script, and allow-same-origin lets the wrapper measure the frame all the same.
FRAMES = {name + suffix: (width, sandbox) for name, width in WIDTHS.items()
          for suffix, sandbox in (("", ""), ("-noscript", ' sandbox="allow-same-origin"'))}


def measure(chromium, page, out_dir):
    frames = "\n".join(
        f'<iframe id="{name}" src="{page.resolve().as_uri()}"{sandbox} '
        f'style="width:{width}px;height:1000px;border:0;display:block"></iframe>'
        for name, (width, sandbox) in FRAMES.items())
    wrapper = out_dir / "layout.html"
    wrapper.write_text(WRAPPER % {"frames": frames})
    profile = out_dir / "chromium-layout-profile"
    run = run_chromium(chromium, ["--allow-file-access-from-files", "--virtual-time-budget=20000",
                                  "--window-size=1500,2200", "--dump-dom",
                                  wrapper.as_uri()], profile)
    shutil.rmtree(profile, ignore_errors=True)
    match = RESULT_RE.search(run.stdout)
    if not match:
        return None, f"no measurement in the dumped DOM (exit {run.returncode}):\n" + \
            run.stderr[-2000:]
    return json.loads(html.unescape(match.group(1))), ""


def problems_of(result, expect_charts):
    problems = []
    for name, (width, sandbox) in FRAMES.items():
        m = result.get(name)
        if m is None:
            problems.append(("frame", f"{name}: not measured"))
            continue
        print(f"{name} ({width} px): scrollWidth {m['scroll_width']} / innerWidth "
              f"{m['inner_width']}; {len(m['shown_charts'])} charts shown "
              f"({len(m['uplot_charts'])} by uPlot); smallest chart text "
              f"{m['text_px_min']} px ({m['smallest_text']!r})")
        if sandbox and m["uplot_charts"]:
            problems.append(("script", f"{name}: uPlot charts in a frame without script"))
        if m["scroll_width"] > m["inner_width"]:
            problems.append(("overflow", f"{name}: the page is {m['scroll_width']} px wide in a "
                             f"{m['inner_width']} px viewport"))
        if not m["shown_charts"]:
            problems.append(("chart", f"{name}: no chart shown"))
        if m["text_px_min"] is not None and m["text_px_min"] < TEXT_PX_MIN:
            problems.append(("text", f"{name}: chart text of {m['text_px_min']:.1f} px "
                             f"({m['smallest_text']!r})"))
        for series in m["empty_series"]:
            problems.append(("series", f"{name}: {series} has data but an empty path"))
        for chart in expect_charts:
            if chart not in m["shown_charts"]:
                problems.append(("chart", f"{name}: chart {chart!r} is not shown"))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drainsim")
    parser.add_argument("--scenario")
    parser.add_argument("--html")
    parser.add_argument("--out", required=True)
    parser.add_argument("--expect-charts", default="")
    parser.add_argument("--expect-failure", action="store_true")
    args = parser.parse_args()
    if bool(args.html) == bool(args.drainsim and args.scenario):
        parser.error("give either --html, or --drainsim and --scenario")
    chromium, out_dir = chromium_and_fresh_dir(args.out)
    if chromium is None:
        return SKIP
    if args.html:
        page = out_dir / "report.html"
        shutil.copyfile(args.html, page)
    else:
        command = [args.drainsim, "run", args.scenario, "--format", "html", "--out", str(out_dir)]
        print("+ " + " ".join(command), flush=True)
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode not in (0, 1):  # 1: an expectation failed, the report is written
            print(f"FAIL: drainsim exited {run.returncode}:\n{run.stderr}")
            return 1
        page = out_dir / "report.html"
    result, error = measure(chromium, page, out_dir)
    if result is None:
        print("FAIL: " + error)
        return 1
    expect = [c for c in args.expect_charts.split(",") if c]
    problems = problems_of(result, expect)
    for kind, text in problems:
        print(f"{kind}: {text}")
    if args.expect_failure:
        kinds = {kind for kind, _ in problems}
        missing = {"overflow", "text", "series"} - kinds
        if missing:
            print(f"FAIL: the broken page passed the checks {sorted(missing)}")
            return 1
        print("PASS: the checks caught the broken page")
        return 0
    print("FAIL" if problems else "PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
