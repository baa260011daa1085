#include "reports/html_interactive.h"

#include "reports/chart_data.h"
#include "reports/html_assets.h"
#include "sim/base/check.h"

namespace drainsim::reports {

namespace {

void Append(std::string& out, InlinedText text) {
  for (const std::string_view piece : text) out.append(piece);
}

bool Wanted(const RunCharts& charts) { return InteractiveBuiltIn() && !charts.figures.empty(); }

}  // namespace

bool InteractiveBuiltIn() { return !InlinedHtmlAssets().uplot_version.empty(); }

std::string InteractiveStyle(const RunCharts& charts) {
  if (!Wanted(charts)) return "";
  const HtmlAssets& assets = InlinedHtmlAssets();
  // The CDATA markers sit inside CSS comments: an HTML parser reads plain CSS, an XML one text.
  std::string out = "<style>/*<![CDATA[*/\n";
  Append(out, assets.uplot_style);
  out += '\n';
  Append(out, assets.page_style);
  out += "/*]]>*/</style>\n";
  return out;
}

std::string InteractiveScripts(const RunCharts& charts, const std::vector<model::Sample>& samples,
                               size_t max_points) {
  DRAINSIM_CHECK(max_points >= 2);
  if (!Wanted(charts)) return "";
  const HtmlAssets& assets = InlinedHtmlAssets();
  const std::string version(assets.uplot_version);
  std::string out = "<script type=\"application/json\" id=\"drainsim-chart-data\" data-uplot=\"" +
                    version + "\">";
  out += ChartDataJson(charts, samples, max_points);
  out += "</script>\n";
  // The CDATA markers sit inside JavaScript comments, as for the style.
  out += "<script>//<![CDATA[\n/*! uPlot " + version + " (the charts below), MIT licence:\n";
  Append(out, assets.uplot_licence);
  out += "*/\n";
  Append(out, assets.uplot_script);
  out += '\n';
  Append(out, assets.page_script);
  out += "\n//]]></script>\n";
  return out;
}

}  // namespace drainsim::reports
