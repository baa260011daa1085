// XmlEscape: text made safe for XML and HTML character data and attribute values. The one
// escaping function of every report writer: junit.xml, the SVG charts, report.html, and the
// pages that reuse them (live's side by side).
//
// Contract:
//  (1) & < > " become &amp; &lt; &gt; &quot;, so the result is safe in text and in double- or
//      single-quoted attribute values.
//  (2) ' becomes &apos; for XML (kXml, junit.xml) and &#39; for HTML and SVG inlined in it
//      (kHtml; HTML 4 has no &apos;).
//  (3) kXml: a character XML 1.0 cannot carry (a control character other than tab, LF and CR)
//      becomes U+FFFD, so the output is well-formed XML. kHtml passes them through, as the
//      pages always have: the two flavours keep the bytes of the two functions they replace
//      (issue 15: behaviour frozen); making them one behaviour would change report.html.
//  (4) Every other byte is copied: UTF-8 stays UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace drainsim::reports {

enum class XmlFlavour { kXml, kHtml };

std::string XmlEscape(std::string_view text, XmlFlavour flavour);

}  // namespace drainsim::reports
