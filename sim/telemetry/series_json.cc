// The JSON parse the Prometheus and CloudWatch readers share (metric_series_text.h).
#include <algorithm>

#include "sim/telemetry/metric_series_text.h"

namespace drainsim::telemetry {

namespace {

// The line of the byte where nesting first exceeds kSeriesDepthMax, outside strings; 0 if never.
size_t TooDeepLine(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  size_t line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (in_string) {
      if (c == '\\') ++i;
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kSeriesDepthMax) return line;
    } else if (c == ']' || c == '}') {
      depth = std::max(0, depth - 1);
    }
  }
  return 0;
}

}  // namespace

base::Expected<nlohmann::json> ParseSeriesJson(std::string_view text, const std::string& file) {
  using base::Failure;
  if (text.size() > kSeriesTextBytesMax) return Failure{file + ": larger than 1024 MiB"};
  if (const size_t line = TooDeepLine(text); line != 0) {
    return Failure{file + ": line " + std::to_string(line) + ": nested deeper than " +
                   std::to_string(kSeriesDepthMax) + " levels"};
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const size_t offset = std::min(text.size(), e.byte == 0 ? size_t{0} : e.byte - 1);
    const size_t line =
        1 + static_cast<size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
    return Failure{file + ": line " + std::to_string(line) + ": not JSON: " + e.what()};
  } catch (const nlohmann::json::exception& e) {
    return Failure{file + ": not JSON: " + e.what()};
  }
}

}  // namespace drainsim::telemetry
