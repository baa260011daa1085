#include "reports/xml_escape.h"

namespace drainsim::reports {

std::string XmlEscape(std::string_view text, XmlFlavour flavour) {
  const bool xml = flavour == XmlFlavour::kXml;
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += xml ? "&apos;" : "&#39;";
        break;
      default:
        if (xml && static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          out += "\xEF\xBF\xBD";  // U+FFFD: XML 1.0 has no way to write these
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace drainsim::reports
