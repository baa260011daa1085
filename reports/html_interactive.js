// report.html's interactive layer (reports/html_interactive.h, docs/REPORT-HTML.md): every chart
// of the page drawn again with uPlot from the JSON in #drainsim-chart-data (reports/chart_data.h),
// with
//   - zoom: drag across a chart (all charts follow); double-click resets;
//   - one cursor for all charts (uPlot's cursor.sync), each chart's legend reading its values
//     at the cursor, and the fault windows, drains and instants under it named below the chart;
//   - series toggles: a click on a legend entry hides or shows its series;
//   - a logarithmic y-scale per chart (a checkbox; values <= 0 are not drawn on it).
// A figure's SVG drawings are hidden (class "interactive") only once its uPlot chart is drawn;
// on any failure the SVG stays and the error goes to the console. Inlined at build time
// (cmake/inline_html_assets.cmake) after uPlot itself: no module, no fetch, no global but
// window.drainsimCharts (name -> chart), for a reader's console and the browser test.
(function () {
  "use strict";

  const SYNC_KEY = "drainsim-report";
  const BAND_ALPHA = 0.16;
  const BAND_WIDTH_MIN_PX = 3;  // as the SVG: a 25-second drain in a six-hour run stays visible
  const NARROW_WIDTH_PX = 600;

  const charts = {};
  window.drainsimCharts = charts;

  // A number as a tick label: no trailing zeros, no float noise ("0.30000000000000004").
  function tick(value) {
    return String(Number(value.toFixed(6)));
  }

  function axisTitle(axis) {
    if (!axis.unit) return axis.label;
    if (!axis.label) return axis.unit;
    return axis.label + " (" + axis.unit + ")";
  }

  // The cursor's time: seconds as report.json writes them (at most 3 decimals shown), and in the
  // axis' unit when that is not seconds: "14420 s (4.01 h)".
  function timeText(spec, t_s) {
    if (t_s == null) return "-";
    let text = tick(Number(t_s.toFixed(3))) + " s";
    if (spec.x.scale !== 1) text += " (" + (t_s / spec.x.scale).toFixed(2) + " " + spec.x.unit + ")";
    return text;
  }

  // A round step (1, 2, 2.5 or 5 times a power of ten) that cuts `range` into about `target`
  // parts, at least 1 for counts: svg_chart.cc's NiceStep, so both drawings end their y-axis alike.
  function niceStep(range, target, integer) {
    const raw = range / target;
    const magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    const f = raw / magnitude;
    let step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * magnitude;
    if (integer && step !== Math.floor(step)) step = step < 1 ? 1 : Math.ceil(step / 5) * 5;
    return step;
  }

  // The smallest round number at or above `value` (> 0): svg_chart.cc's NiceCeil.
  function niceCeil(value, integer) {
    const step = niceStep(value, 5, integer);
    return Math.ceil(value / step - 1e-9) * step;
  }

  // The x-axis' tick steps, round in the axis' unit (hours, minutes or seconds) rather than in
  // seconds: 1, 2 or 5 times a power of ten of the unit.
  function timeSteps(scale) {
    const steps = [];
    for (let e = -3; e <= 7; ++e) {
      for (const f of [1, 2, 5]) steps.push(f * Math.pow(10, e) * scale);
    }
    return steps;
  }

  // A log scale labels its powers of ten only, not its minor ticks (20, 30, ...).
  function powerOfTen(value) {
    const exponent = Math.log10(value);
    return Math.abs(exponent - Math.round(exponent)) < 1e-9;
  }

  // The y-axis' tick steps for counts: no tick between two integers.
  function countSteps() {
    const steps = [];
    for (let e = 0; e <= 12; ++e) {
      for (const f of [1, 2, 5]) steps.push(f * Math.pow(10, e));
    }
    return steps;
  }

  function cssVariable(name, fallback) {
    const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return value || fallback;
  }

  // Fault windows and drains under the series, as the SVG shades them.
  function drawBands(chart, u) {
    const ctx = u.ctx;
    const {left, top, width, height} = u.bbox;
    ctx.save();
    ctx.globalAlpha = BAND_ALPHA;
    for (const band of chart.spec.bands) {
      const from = Math.max(u.valToPos(band.from, "x", true), left);
      const until = Math.min(u.valToPos(band.until, "x", true), left + width);
      if (until < left || from > left + width) continue;
      ctx.fillStyle = band.colour;
      ctx.fillRect(from, top, Math.max(until - from, BAND_WIDTH_MIN_PX * devicePixelRatio), height);
    }
    ctx.restore();
  }

  // Instants (dotted) and the alert threshold (dashed) over the series.
  function drawMarks(chart, u) {
    const ctx = u.ctx;
    const {left, top, width, height} = u.bbox;
    const dpr = devicePixelRatio;
    ctx.save();
    ctx.lineWidth = dpr;
    ctx.setLineDash([2 * dpr, 3 * dpr]);
    for (const marker of chart.spec.markers) {
      const x = u.valToPos(marker.x, "x", true);
      if (x < left || x > left + width) continue;
      ctx.strokeStyle = marker.colour;
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
    }
    const threshold = chart.spec.threshold;
    if (threshold) {
      const y = u.valToPos(threshold.y, "y", true);
      if (y >= top && y <= top + height) {
        ctx.lineWidth = 1.5 * dpr;
        ctx.setLineDash([6 * dpr, 4 * dpr]);
        ctx.strokeStyle = threshold.colour;
        ctx.beginPath();
        ctx.moveTo(left, y);
        ctx.lineTo(left + width, y);
        ctx.stroke();
      }
    }
    ctx.restore();
  }

  // What the SVG says in its tooltips, for the instant under the cursor.
  function showMarksAtCursor(chart, u) {
    const idx = u.cursor.idx;
    if (idx == null || u.cursor.left < 0) {
      chart.atCursor.textContent = "";
      return;
    }
    const t = u.data[0][idx];
    const pxPerSecond = u.bbox.width / devicePixelRatio / (u.scales.x.max - u.scales.x.min);
    const near = 3 / pxPerSecond;  // a marker within 3 px of the cursor
    const titles = [];
    for (const band of chart.spec.bands) {
      if (band.from <= t && t <= band.until) titles.push(band.title);
    }
    for (const marker of chart.spec.markers) {
      if (Math.abs(marker.x - t) <= near) titles.push(marker.title);
    }
    chart.atCursor.textContent = titles.join("; ");
  }

  function yRange(chart, min, max) {
    const spec = chart.spec;
    if (chart.log) {
      if (min == null || max == null || !(max > 0)) return [1, 10];
      return uPlot.rangeLog(min, max, 10, true);
    }
    let top = Math.max(max == null ? 0 : max, spec.threshold ? spec.threshold.y : 0);
    if (spec.y.max != null && top <= spec.y.max) top = spec.y.max;
    return [0, top > 0 ? niceCeil(top, spec.y.integer) : 1];
  }

  // The data uPlot draws: as embedded, or with values <= 0 left out on a log scale.
  function drawnData(chart) {
    if (!chart.log) return chart.spec.data;
    return chart.spec.data.map((column, i) =>
        i === 0 ? column : column.map((v) => (v != null && v > 0 ? v : null)));
  }

  function options(chart, width) {
    const spec = chart.spec;
    const fg = getComputedStyle(chart.figure).color;
    const grid = {stroke: cssVariable("--line", "rgba(128,128,128,0.3)"), width: 1};
    const series = [{label: "time", value: (u, v) => timeText(spec, v)}];
    spec.series.forEach((s, k) => {
      series.push({
        label: s.label,
        stroke: s.colour,
        width: 1.6,
        spanGaps: false,
        points: {show: false},
        // The read-out: the embedded value (so a 0 hidden from a log scale still reads 0).
        value: (u, v, si, idx) => {
          const value = idx == null ? v : spec.data[k + 1][idx];
          return value == null ? "-" : value.toFixed(s.decimals);
        },
      });
    });
    return {
      width: width,
      height: width < NARROW_WIDTH_PX ? 220 : 280,
      series: series,
      scales: {
        x: {time: false},
        y: {distr: chart.log ? 3 : 1, log: 10, range: (u, min, max) => yRange(chart, min, max)},
      },
      axes: [
        {label: axisTitle(spec.x), stroke: fg, grid: grid, ticks: grid,
         incrs: timeSteps(spec.x.scale),
         values: (u, splits) => splits.map((v) => tick(v / spec.x.scale))},
        {label: axisTitle(spec.y), stroke: fg, grid: grid, ticks: grid,
         size: (u, values) => 16 + 7 * Math.max(1, ...(values || []).map((v) => String(v).length)),
         values: (u, splits) =>
             splits.map((v) => (chart.log && !powerOfTen(v) ? "" : tick(v / spec.y.scale))),
         ...(spec.y.integer && !chart.log ? {incrs: countSteps()} : {})},
      ],
      cursor: {
        // The time is shared, not the height: no horizontal line, which would stand at a
        // meaningless value in the other charts.
        y: false,
        sync: {key: SYNC_KEY, scales: ["x", null]},
        drag: {x: true, y: false, setScale: true},
      },
      legend: {live: true},
      hooks: {
        drawClear: [(u) => drawBands(chart, u)],
        draw: [(u) => drawMarks(chart, u)],
        setCursor: [(u) => showMarksAtCursor(chart, u)],
      },
    };
  }

  // (Re)creates the chart's uPlot, keeping the x range (a zoom) and the hidden series.
  function draw(chart) {
    const old = chart.plot;
    const width = Math.max(chart.host.clientWidth, 200);
    const plot = new uPlot(options(chart, width), drawnData(chart), chart.host);
    if (old) {
      old.series.forEach((s, i) => {
        if (i > 0 && !s.show) plot.setSeries(i, {show: false});
      });
      plot.setScale("x", {min: old.scales.x.min, max: old.scales.x.max});
      old.destroy();
    }
    chart.plot = plot;
  }

  function controls(chart) {
    const bar = document.createElement("div");
    bar.className = "chart-controls";
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.className = "log-scale";
    box.addEventListener("change", () => {
      chart.log = box.checked;
      draw(chart);
    });
    label.append(box, " logarithmic y-scale");
    const hint = document.createElement("span");
    hint.textContent = "drag across a chart to zoom, double-click to reset; click a legend entry " +
        "to hide or show its series";
    bar.append(label, hint);
    return bar;
  }

  function build(figure, spec) {
    const chart = {spec: spec, figure: figure, log: false, plot: null};
    chart.host = document.createElement("div");
    chart.host.className = "chart-host";
    chart.host.dataset.chart = spec.name;
    chart.atCursor = document.createElement("p");
    chart.atCursor.className = "at-cursor";
    const bar = controls(chart);
    const first = figure.querySelector(".wide") || figure.querySelector("figcaption");
    figure.insertBefore(bar, first);
    figure.insertBefore(chart.host, first);
    figure.insertBefore(chart.atCursor, first);
    try {
      draw(chart);
    } catch (error) {
      bar.remove();
      chart.host.remove();
      chart.atCursor.remove();
      throw error;
    }
    figure.classList.add("interactive");
    let width = chart.host.clientWidth;
    new ResizeObserver(() => {
      if (chart.host.clientWidth === width) return;
      width = chart.host.clientWidth;
      const w = Math.max(width, 200);
      chart.plot.setSize({width: w, height: w < NARROW_WIDTH_PX ? 220 : 280});
    }).observe(chart.host);
    return chart;
  }

  function main() {
    const element = document.getElementById("drainsim-chart-data");
    const data = JSON.parse(element.textContent);
    const specs = {};
    for (const spec of data.charts) specs[spec.name] = spec;
    for (const figure of document.querySelectorAll("figure")) {
      const svg = figure.querySelector("svg[data-chart]");
      const spec = svg && specs[svg.dataset.chart];
      if (!spec) continue;
      try {
        charts[spec.name] = build(figure, spec);
      } catch (error) {
        console.error("drainsim: the interactive chart " + spec.name +
                      " failed; its SVG drawing stays: " + error);
      }
    }
  }

  main();
})();
