#!/usr/bin/env python3
"""Drives report.html's interactive layer (uPlot) in headless Chromium at 1400 and 390 px.

    check_interactive.py --drainsim BIN --scenario SCENARIO.json --out DIR
        runs `drainsim run SCENARIO --format html,json --out DIR` and drives DIR/report.html,
        checking what the page reads out against DIR/report.json
    check_interactive.py --drainsim BIN --scenario SCENARIO.json --out DIR --expect-failure
        the same on a tampered copy (DIR/tampered.html: every charted value doubled in the
        embedded data, and a console.error): succeeds only if the checks find both, the self-test
        that proves they can fail

As check_layout.py does, a wrapper page (DIR/interactive.html) loads the report into two iframes,
1400 and 390 CSS px wide, and its script drives each one once loaded, with the events a reader's
mouse makes (mouseenter/mousemove/mousedown/mouseup/dblclick on the chart's uPlot overlay,
clicks on a legend entry and on the log-scale checkbox), then writes what it saw into its own DOM
for `--dump-dom`. Checks, at each width:
  1. no console message from the page (Chromium's log, as check_report.py reads it);
  2. every chart of the embedded data is drawn by uPlot (window.drainsimCharts), its figure
     marked "interactive", its SVG drawings hidden and its uPlot chart shown;
  3. the cursor: moved over the first chart at two instants (the first series' largest value, and
     mid-run), the mouse lands there (within 1.5 px), and every chart's cursor, the first's and
     the others', goes to the instant under the mouse (within 1.5 px of that chart's sample
     nearest to it: a chart is down-sampled on its own, reports/chart_data.h);
  4. the read-out: in every chart, the legend's time and each series' value are report.json's
     series at the cursor's sample - column times factor, shown with the series' decimals (as
     JavaScript's toFixed rounds: half away from zero on the exact binary value) - or "-" at a gap;
  5. a click on a legend entry hides its series (uPlot's series.show, the row's u-off) and a second
     click shows it again;
  6. the log-scale checkbox redraws the chart with y distribution 3 (log), the read-out there
     still matches report.json, and unchecking it goes back to linear;
  7. a drag across the first chart zooms it, and the other charts follow, to the dragged range;
     a double-click resets the range to the whole run;
  8. no horizontal overflow: document.documentElement.scrollWidth <= innerWidth.
Exit status: 0 pass, 1 fail, 77 skipped: no Chromium, or a report without the interactive layer
(a drainsim built without uPlot: the set-up could not fetch it), which ctest then shows as
skipped by name rather than passed. Only the standard library is used.
"""

import argparse
import decimal
import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_report import CONSOLE_RE, SKIP, chromium_and_fresh_dir, run_chromium  # noqa: E402

WIDTHS = {"desktop": 1400, "phone": 390}
DATA_RE = re.compile(r'<script type="application/json" id="drainsim-chart-data"[^>]*>(.*?)</script>',
                     re.S)
RESULT_RE = re.compile(r'<pre id="interactive-result">(.*?)</pre>', re.S)
CURSOR_PX_MAX = 1.5

DRIVER = r"""
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function mouse(win, target, type, x, y, extra) {
  target.dispatchEvent(new win.MouseEvent(type, Object.assign(
      {clientX: x, clientY: y, bubbles: true, cancelable: true, view: win, button: 0,
       movementX: 1, movementY: 1}, extra || {})));
}

function legend(plot) {
  return Array.from(plot.root.querySelectorAll(".u-legend .u-series"), (row) => {
    const value = row.querySelector(".u-value");
    return value ? value.textContent : null;
  });
}

function cursors(charts, x) {
  const out = {};
  for (const [name, chart] of Object.entries(charts)) {
    const plot = chart.plot;
    const idx = plot.cursor.idx;
    const t = plot.data[0];
    let nearest = 0;  // this chart's sample nearest to x: a chart down-sampled apart may have none at x
    for (let i = 1; i < t.length; ++i) if (Math.abs(t[i] - x) < Math.abs(t[nearest] - x)) nearest = i;
    const px = (value) => Math.abs(plot.valToPos(value, "x") - plot.valToPos(x, "x"));
    out[name] = {idx: idx, x: idx == null ? null : t[idx], legend: legend(plot),
                 px_off: idx == null ? null : px(t[idx]), nearest_px_off: px(t[nearest])};
  }
  return out;
}

async function point(win, chart) {
  chart.host.scrollIntoView({block: "center"});
  await sleep(50);
  chart.plot.syncRect();
  return chart.plot.over.getBoundingClientRect();
}

async function moveTo(win, chart, x) {
  const rect = await point(win, chart);
  const left = rect.left + chart.plot.valToPos(x, "x");
  const top = rect.top + rect.height / 2;
  mouse(win, chart.plot.over, "mouseenter", left, top);
  mouse(win, chart.plot.over, "mousemove", left, top);
  await sleep(50);
}

// Moves the cursor over `first` to x and reads every chart: the others follow to the instant
// under the mouse (which a whole pixel may put a little off x).
async function probe(win, charts, first, x, log) {
  await moveTo(win, first, x);
  const plot = first.plot;
  const mouse_x = plot.posToVal(plot.cursor.left, "x");
  return {target_x: x, mouse_x: mouse_x, log: log, driven: plot.root.parentNode.dataset.chart,
          driven_px_from_target: Math.abs(plot.cursor.left - plot.valToPos(x, "x")),
          charts: cursors(charts, mouse_x)};
}

async function drive(frame) {
  const win = frame.contentWindow, doc = frame.contentDocument;
  const out = {inner_width: win.innerWidth, problems: [], charts: [], cursor: []};
  const charts = win.drainsimCharts;
  const element = doc.getElementById("drainsim-chart-data");
  if (!element) { out.no_layer = true; return out; }
  if (!charts) { out.problems.push("window.drainsimCharts is not set"); return out; }
  const data = JSON.parse(element.textContent);
  for (const spec of data.charts) {
    const chart = charts[spec.name];
    const entry = {name: spec.name, drawn: !!chart};
    if (chart) {
      const host = chart.host.getBoundingClientRect();
      entry.interactive = chart.figure.classList.contains("interactive");
      entry.host_width = host.width;
      entry.svg_shown = Array.from(chart.figure.querySelectorAll("svg[data-chart]"))
          .some((svg) => svg.getBoundingClientRect().width > 0);
      entry.canvas_width = chart.plot.ctx.canvas.getBoundingClientRect().width;
    }
    out.charts.push(entry);
  }
  const first = charts[data.charts[0].name];
  if (!first) return out;
  const plot = first.plot;
  const t = plot.data[0];
  // The first series' largest value away from the edges (the plot's first and last pixels).
  const lo = Math.ceil(t.length * 0.02), hi = Math.floor(t.length * 0.98);
  let peak = lo;
  for (let i = lo; i < hi; ++i) if (plot.data[1][i] > plot.data[1][peak]) peak = i;
  for (const idx of [peak, Math.floor(t.length / 2)]) {
    out.cursor.push(await probe(win, charts, first, t[idx], false));
  }
  // Series toggles.
  const row = plot.root.querySelectorAll(".u-legend .u-series")[1];
  row.querySelector("th").click();
  await sleep(20);
  out.toggle = {hidden: !plot.series[1].show, off: row.classList.contains("u-off")};
  row.querySelector("th").click();
  await sleep(20);
  out.toggle.shown_again = plot.series[1].show && !row.classList.contains("u-off");
  // Log scale.
  const box = first.figure.querySelector("input.log-scale");
  box.click();
  await sleep(50);
  out.log = {distr: first.plot.scales.y.distr, redrawn: first.plot !== plot};
  out.cursor.push(await probe(win, charts, first, t[Math.floor(t.length / 2)], true));
  box.click();
  await sleep(50);
  out.log.distr_after = first.plot.scales.y.distr;
  // Zoom: drag from a quarter to half of the plot's width, then double-click.
  const zoomed = first.plot;
  const rect = await point(win, first);
  const y = rect.top + rect.height / 2;
  const from = rect.left + rect.width * 0.25, to = rect.left + rect.width * 0.5;
  const expected = [zoomed.posToVal(rect.width * 0.25, "x"), zoomed.posToVal(rect.width * 0.5, "x")];
  mouse(win, zoomed.over, "mouseenter", from, y);
  mouse(win, zoomed.over, "mousedown", from, y);
  mouse(win, zoomed.over, "mousemove", (from + to) / 2, y);
  mouse(win, zoomed.over, "mousemove", to, y);
  mouse(win, zoomed.over, "mouseup", to, y);
  await sleep(50);
  const scales = () => Object.fromEntries(Object.entries(charts).map(
      ([name, chart]) => [name, [chart.plot.scales.x.min, chart.plot.scales.x.max]]));
  out.zoom = {full: [t[0], t[t.length - 1]], expected: expected, zoomed: scales()};
  mouse(win, zoomed.over, "dblclick", to, y);
  await sleep(50);
  out.zoom.reset = scales();
  out.scroll_width = doc.documentElement.scrollWidth;
  out.inner_width = win.innerWidth;
  return out;
}

// The wrapper's own load event comes once every frame has loaded; a frame's load event could
// come before this script listens to it (a small file: page loads fast).
async function done() {
  const result = {};
  for (const frame of document.querySelectorAll("iframe")) {
    try {
      result[frame.id] = await drive(frame);
    } catch (error) {
      result[frame.id] = {problems: ["the driver failed: " + error + "\n" + error.stack]};
    }
  }
  const pre = document.createElement("pre");
  pre.id = "interactive-result";
  pre.textContent = JSON.stringify(result);
  document.body.appendChild(pre);
}
window.addEventListener("load", done);
"""


def js_fixed(value, decimals):
    """JavaScript's value.toFixed(decimals): the exact binary value, ties away from zero."""
    quantum = decimal.Decimal(1).scaleb(-decimals)
    return str(decimal.Decimal(value).quantize(quantum, rounding=decimal.ROUND_HALF_UP))


def js_tick(value):
    """html_interactive.js's tick(): String(Number(value.toFixed(6))), for values it meets."""
    text = format(decimal.Decimal(js_fixed(value, 6)).normalize(), "f")
    return "0" if text in ("-0", "0") else text


def time_text(spec, t_s):
    text = js_tick(float(js_fixed(t_s, 3))) + " s"
    if spec["x"]["scale"] != 1:
        text += f" ({js_fixed(t_s / spec['x']['scale'], 2)} {spec['x']['unit']})"
    return text


def readout_problems(frame, probe, specs, report_series):
    """Checks 3 and 4 for one cursor position: the problems found."""
    problems = []
    if probe["driven_px_from_target"] > CURSOR_PX_MAX:
        problems.append(("cursor", f"{frame}: {probe['driven']}: the mouse is "
                         f"{probe['driven_px_from_target']:.1f} px from where it was moved"))
    t_index = {t: i for i, t in enumerate(report_series["t_s"])}
    for name, seen in sorted(probe["charts"].items()):
        where = (f"{frame}: {name} ({'log' if probe['log'] else 'linear'}, cursor moved to "
             f"{probe['target_x']} s, the mouse at {probe['mouse_x']:.1f} s)")
        if seen["idx"] is None:
            problems.append(("cursor", f"{where}: no cursor"))
            continue
        if seen["px_off"] > seen["nearest_px_off"] + CURSOR_PX_MAX:
            problems.append(("cursor", f"{where}: cursor at {seen['x']} s, {seen['px_off']:.1f} px "
                             "from the mouse"))
        spec = specs[name]
        if seen["x"] not in t_index:
            problems.append(("readout", f"{where}: {seen['x']} s is no sample of report.json"))
            continue
        i = t_index[seen["x"]]
        expected = [time_text(spec, seen["x"])]
        for k, series in enumerate(spec["series"]):
            embedded = spec["data"][k + 1][seen["idx"]]
            reported = report_series[series["column"]][i] * series["factor"]
            if embedded is None:
                expected.append("-")
                continue
            if embedded != reported:
                problems.append(("readout", f"{where}: {series['label']}: the page holds "
                                 f"{embedded}, report.json {reported}"))
            expected.append(js_fixed(reported, series["decimals"]))
        if seen["legend"] != expected:
            problems.append(("readout", f"{where}: the legend reads {seen['legend']}, "
                             f"report.json gives {expected}"))
    return problems


def frame_problems(frame, width, m, specs, report_series):
    problems = [("driver", f"{frame}: {p}") for p in m.get("problems", [])]
    if problems:
        return problems
    print(f"{frame} ({width} px): {len(m['charts'])} charts; scrollWidth {m['scroll_width']} / "
          f"innerWidth {m['inner_width']}; {len(m['cursor'])} cursor positions read")
    for chart in m["charts"]:
        name = chart["name"]
        if not chart["drawn"]:
            problems.append(("chart", f"{frame}: {name}: no uPlot chart"))
        elif not chart["interactive"] or chart["svg_shown"]:
            problems.append(("chart", f"{frame}: {name}: the SVG still shows"))
        elif not 0 < chart["canvas_width"] <= m["inner_width"]:
            problems.append(("chart", f"{frame}: {name}: canvas {chart['canvas_width']} px wide"))
    for probe in m["cursor"]:
        problems += readout_problems(frame, probe, specs, report_series)
    toggle = m.get("toggle", {})
    if not (toggle.get("hidden") and toggle.get("off") and toggle.get("shown_again")):
        problems.append(("toggle", f"{frame}: a legend click did not hide and show: {toggle}"))
    log = m.get("log", {})
    if log.get("distr") != 3 or not log.get("redrawn") or log.get("distr_after") != 1:
        problems.append(("log", f"{frame}: the log-scale checkbox: {log}"))
    problems += zoom_problems(frame, m.get("zoom"))
    if m["scroll_width"] > m["inner_width"]:
        problems.append(("overflow", f"{frame}: the page is {m['scroll_width']} px wide in a "
                         f"{m['inner_width']} px viewport"))
    return problems


def zoom_problems(frame, zoom):
    if not zoom:
        return [("zoom", f"{frame}: no zoom measured")]
    problems = []
    full_lo, full_hi = zoom["full"]
    tolerance = (full_hi - full_lo) * 0.01
    lo, hi = zoom["expected"]
    for name, (z_lo, z_hi) in sorted(zoom["zoomed"].items()):
        if abs(z_lo - lo) > tolerance or abs(z_hi - hi) > tolerance:
            problems.append(("zoom", f"{frame}: {name}: zoomed to [{z_lo}, {z_hi}], the drag "
                             f"covered [{lo:.1f}, {hi:.1f}]"))
    for name, (r_lo, r_hi) in sorted(zoom["reset"].items()):
        if abs(r_lo - full_lo) > tolerance or abs(r_hi - full_hi) > tolerance:
            problems.append(("zoom", f"{frame}: {name}: after a double-click [{r_lo}, {r_hi}], "
                             f"not the whole run [{full_lo}, {full_hi}]"))
    return problems


def tamper(page, out_dir):
    """A copy of the page with every charted value doubled and a console.error."""
    text = page.read_text()
    match = DATA_RE.search(text)
    data = json.loads(match.group(1))
    for chart in data["charts"]:
        chart["data"][1:] = [[None if v is None else 2 * v + 1 for v in column]
                             for column in chart["data"][1:]]
    dumped = json.dumps(data, separators=(",", ":"))
    dumped = dumped.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    text = text[:match.start(1)] + dumped + text[match.end(1):]
    text = text.replace("</body>", "<script>console.error('deliberate');</script>\n</body>")
    tampered = out_dir / "tampered.html"
    tampered.write_text(text)
    return tampered


def drive(chromium, page, out_dir):
    """(the driver's result per frame, console problems), or (None, error)."""
    frames = "\n".join(
        f'<iframe id="{name}" src="{page.resolve().as_uri()}" '
        f'style="width:{width}px;height:900px;border:0;display:block"></iframe>'
        for name, width in WIDTHS.items())
    wrapper = out_dir / "interactive.html"
    wrapper.write_text('<!DOCTYPE html>\n<html><head><meta charset="utf-8"/></head><body>\n'
                       + frames + "\n<script>" + DRIVER
                       + "</script>\n</body></html>\n")
    profile = out_dir / "chromium-interactive-profile"
    run = run_chromium(chromium, ["--allow-file-access-from-files", "--virtual-time-budget=30000",
                                  "--window-size=1500,1000", "--enable-logging=stderr", "--v=0",
                                  "--dump-dom", wrapper.as_uri()], profile)
    shutil.rmtree(profile, ignore_errors=True)
    console = []
    for line in run.stderr.splitlines():
        match = CONSOLE_RE.search(line)
        if match and (match.group("source") or "file:").startswith("file:"):
            console.append(("console", f"console message from the page: {line.strip()}"))
    match = RESULT_RE.search(run.stdout)
    if not match:
        return None, f"no result in the dumped DOM (exit {run.returncode}):\n{run.stderr[-2000:]}"
    return json.loads(html.unescape(match.group(1))), console


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drainsim", required=True)
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--expect-failure", action="store_true")
    args = parser.parse_args()
    chromium, out_dir = chromium_and_fresh_dir(args.out)
    if chromium is None:
        return SKIP
    command = [args.drainsim, "run", args.scenario, "--format", "html,json", "--out", str(out_dir),
               "--quiet"]
    print("+ " + " ".join(command), flush=True)
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode not in (0, 1):  # 1: an expectation failed, the reports are written
        print(f"FAIL: drainsim exited {run.returncode}:\n{run.stderr}")
        return 1
    page = out_dir / "report.html"
    match = DATA_RE.search(page.read_text())
    if not match:
        print(f"SKIPPED: {page} has no interactive layer: this drainsim was built without uPlot "
              "(the set-up could not fetch it: tools/lib/setup.sh drainsim_fetch_uplot); its SVG "
              "charts are checked by check_layout.py")
        return SKIP
    specs = {spec["name"]: spec for spec in json.loads(match.group(1))["charts"]}
    report_series = json.loads((out_dir / "report.json").read_text())["series"]
    if args.expect_failure:
        page = tamper(page, out_dir)
    result, console = drive(chromium, page, out_dir)
    if result is None:
        print("FAIL: " + console)
        return 1
    problems = list(console)
    for frame, width in WIDTHS.items():
        if frame not in result:
            problems.append(("frame", f"{frame}: not driven"))
            continue
        problems += frame_problems(frame, width, result[frame], specs, report_series)
    for kind, text in problems:
        print(f"{'found' if args.expect_failure else 'FAIL'} ({kind}): {text}")
    if args.expect_failure:
        missing = {"console", "readout"} - {kind for kind, _ in problems}
        if missing:
            print(f"FAIL: the checks missed the tampered page's problems: {sorted(missing)}")
            return 1
        print("PASS: the checks caught the tampered page")
        return 0
    if problems:
        return 1
    print(f"PASS: {page} at {', '.join(f'{w} px' for w in WIDTHS.values())}: every chart drawn "
          "by uPlot, cursor synced, read-outs equal to report.json, toggles, log scale, zoom")
    return 0


if __name__ == "__main__":
    sys.exit(main())
