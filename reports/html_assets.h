// The texts report.html inlines besides its own markup: uPlot (the charting library of the
// interactive layer, third_party/uplot/PIN) and the layer's own script and style
// (reports/html_interactive.js and .css). They are read at build time into a generated source
// (cmake/inline_html_assets.cmake), so the page never fetches them and the binary needs no file
// beside it.
//
// Contract:
//  (1) uplot_version is "" iff uPlot was not available when the binary was built (the set-up could
//      not fetch it); uplot_script, uplot_style and uplot_licence are then empty.
//  (2) Each text is in pieces, in order: the text is their concatenation (a piece is at most
//      8000 bytes, below every compiler's limit on a string literal).
//  (3) No text holds "</script", "</style", "]]>" or "<!--" (the build fails otherwise), so each
//      can be inlined in its element inside a CDATA section; the licence holds no "*/".
// Thread-safety: immutable constants.
#pragma once

#include <span>
#include <string_view>

namespace drainsim::reports {

using InlinedText = std::span<const std::string_view>;

struct HtmlAssets {
  std::string_view uplot_version;  // "1.6.32"; "" iff not built in
  InlinedText uplot_script;        // dist/uPlot.iife.min.js: defines the global uPlot
  InlinedText uplot_style;         // dist/uPlot.min.css
  InlinedText uplot_licence;       // its LICENSE (MIT)
  InlinedText page_script;         // reports/html_interactive.js
  InlinedText page_style;          // reports/html_interactive.css
};

// Defined by the generated source.
const HtmlAssets& InlinedHtmlAssets();

}  // namespace drainsim::reports
