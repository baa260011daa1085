// report.html: one self-contained page for people — a headline panel (scenario, seed, verdict,
// time to empty, duplicates, human needed, lost), the expectations, the drains and the faults,
// and the charts over simulated time (reports/html_charts.h) as inline SVG, drawn again by the
// interactive layer (reports/html_interactive.h: uPlot, zoom, a shared cursor reading the values
// out) where the binary was built with uPlot and the reader's browser runs script.
//
// Contract:
//  (1) Self-contained: inline CSS, SVG and, with the interactive layer, two inline scripts (the
//      charts' data, and uPlot with the page's script); no <link>, no image, no font, no src, no
//      URL that a browser would fetch. Outside the scripts the only "http" in the file is the SVG
//      namespace name. Without script the page reads in full: the SVG charts are its charts.
//  (2) Reads in light and dark: colours follow prefers-color-scheme; axes and text are drawn in
//      currentColor.
//  (3) A pure function of the ReportInput: no timestamp; same run, same bytes.
//  (4) Every text from outside (scenario name, path, expectations, reasons) is HTML-escaped.
//  (5) Well-formed as XML after the <!DOCTYPE html> line (void elements self-closed; the scripts'
//      and the interactive style's text in CDATA sections), so tests can parse it strictly.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "reports/report_input.h"

namespace drainsim::reports {

// The page, with each chart series down-sampled to at most max_points points.
// REQUIRES: max_points >= 2
std::string HtmlReport(const ReportInput& input, size_t max_points);

// HtmlReport(input, 2000): what `--format html` writes.
std::string HtmlReport(const ReportInput& input);

// The page's CSS (light and dark), shared with the other HTML pages drainsim writes
// (reports/replications_html.h) so they read alike.
std::string_view HtmlStyle();

}  // namespace drainsim::reports
