// Small text forms that several report writers share, each defined once.
//
// Once, not per file: besides being one rule per form, the libraries compile as unity builds
// (cmake/unity_libraries.cmake), where neighbouring files are one translation unit and two
// file-local copies of a helper collide.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "reports/xml_escape.h"
#include "sim/base/decimal.h"

namespace drainsim::reports {

// A confidence level or a share as the comparison, sweep and tuning tables print it: "97.5000%".
inline std::string LevelPercent(double level) { return base::Decimal(level * 100, 4) + "%"; }

// A duration read by people: "12.345 s".
inline std::string SecondsText(double seconds) { return base::Decimal(seconds, 3) + " s"; }

// HTML character data, escaped (report.html and the replications page).
inline std::string HtmlText(std::string_view text) { return XmlEscape(text, XmlFlavour::kHtml); }
inline std::string HtmlCode(std::string_view text) { return "<code>" + HtmlText(text) + "</code>"; }

// One HTML table row of ready-made cells; `header` makes them <th>.
inline void HtmlRow(std::string& out, const std::vector<std::string>& cells, bool header = false) {
  out += "<tr>";
  for (const std::string& cell : cells) {
    out += header ? "<th>" + cell + "</th>" : "<td>" + cell + "</td>";
  }
  out += "</tr>\n";
}

}  // namespace drainsim::reports
