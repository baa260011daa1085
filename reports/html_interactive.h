// The interactive layer of report.html: each chart drawn again with uPlot (the charting library
// inlined at build time, reports/html_assets.h), with zoom (drag across a chart; double-click
// resets), a cursor shared by every chart with the values at the cursor in each chart's legend,
// series shown or hidden by a click on their legend entry, and a logarithmic y-scale by a checkbox.
// The inline SVG charts stay in the page as the fallback: a reader without script, or a binary
// built without uPlot, gets them as before. docs/REPORT-HTML.md describes the page.
//
// Contract:
//  (1) Built in iff InlinedHtmlAssets().uplot_version is not "": otherwise InteractiveStyle() and
//      InteractiveScripts() return "" and the page has no script at all.
//  (2) The layer is two <script> elements at the end of the body: the charts' data as JSON
//      (reports/chart_data.h; id "drainsim-chart-data", with data-uplot="VERSION"), then uPlot's
//      licence as a comment, uPlot, and the page's own script (reports/html_interactive.js), in a
//      CDATA section so the page stays well-formed XML. Neither has a src: nothing is fetched.
//  (3) The script hides a figure's SVG drawings only once its uPlot chart is drawn: where
//      drawing fails, the SVG stays and the error goes to the console.
//  (4) Pure functions of their arguments and of the binary: same run, same bytes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reports/html_charts.h"
#include "sim/model/results.h"

namespace drainsim::reports {

// True iff this binary inlines uPlot.
bool InteractiveBuiltIn();

// "<style>...</style>\n" with uPlot's style and the layer's; "" when not built in or no charts.
std::string InteractiveStyle(const RunCharts& charts);

// The two <script> elements of contract (2); "" when not built in or no charts.
// REQUIRES: max_points >= 2
std::string InteractiveScripts(const RunCharts& charts, const std::vector<model::Sample>& samples,
                               size_t max_points);

}  // namespace drainsim::reports
