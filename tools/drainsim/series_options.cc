#include "tools/drainsim/series_options.h"

#include "reports/metrics.h"

namespace drainsim::cli {

base::Expected<std::pair<std::string, std::string>> KeyValue(const char* option,
                                                             const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    return base::Failure{std::string(option) + " '" + text + "': must be KEY=VALUE"};
  }
  return std::make_pair(text.substr(0, eq), text.substr(eq + 1));
}

base::Expected<telemetry::SeriesReadOptions> SeriesOptions(const std::vector<std::string>& maps) {
  telemetry::SeriesReadOptions options;
  for (const reports::SeriesColumn& column : reports::SeriesColumns()) {
    options.ignored_columns.push_back(column.name);  // drainsim's own series.csv
  }
  for (const std::string& item : maps) {
    const auto kv = KeyValue("--map", item);
    if (!kv) return base::Failure{kv.error()};
    if (base::Status s = telemetry::CheckFigureName(kv->second); !s) {
      return base::Failure{"--map " + item + ": " + s.error()};
    }
    options.name_map[kv->first] = kv->second;
  }
  return options;
}

}  // namespace drainsim::cli
