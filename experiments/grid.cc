#include "experiments/grid.h"

#include <charconv>
#include <cmath>

#include "experiments/scenario_edit.h"
#include "reports/metrics.h"
#include "sim/scenario/load.h"

namespace drainsim::experiments {

namespace {

using nlohmann::json;

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

std::optional<double> ParseNumber(const std::string& text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

bool LooksInteger(const std::string& text) {
  return text.find_first_of(".eE") == std::string::npos;
}

base::Expected<std::vector<json>> ParseRange(const std::vector<std::string>& parts) {
  const std::optional<double> start = ParseNumber(parts[0]);
  const std::optional<double> stop = ParseNumber(parts[1]);
  const std::optional<double> step = ParseNumber(parts[2]);
  if (!start || !stop || !step) return base::Failure{"START:STOP:STEP needs three numbers"};
  if (!(*step > 0) || *stop < *start) {
    return base::Failure{"a range needs STEP > 0 and START <= STOP"};
  }
  const double steps = std::floor((*stop - *start) / *step + 1e-9);
  if (steps + 1 > static_cast<double>(kAxisValuesMax)) {
    return base::Failure{"more than " + std::to_string(kAxisValuesMax) + " values"};
  }
  const bool integer = LooksInteger(parts[0]) && LooksInteger(parts[2]);
  std::vector<json> values;
  for (int64_t k = 0; k <= static_cast<int64_t>(steps); ++k) {
    const double value = *start + static_cast<double>(k) * *step;
    if (integer) {
      values.emplace_back(static_cast<int64_t>(std::llround(value)));
    } else {
      values.emplace_back(reports::Fixed(value));
    }
  }
  return values;
}

json ParseItem(const std::string& item) {
  try {
    json value = json::parse(item);
    if (value.is_primitive()) return value;
  } catch (const json::exception&) {
  }
  return json(item);
}

}  // namespace

base::Expected<Axis> ParseVary(const std::string& text) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos || text.empty() || text[0] != '/') {
    return base::Failure{"'" + text +
                         "' is not PATH=VALUES (a JSON pointer such as /drains/0/rate_per_s, "
                         "then a comma-separated list or START:STOP:STEP)"};
  }
  Axis axis;
  axis.pointer = text.substr(0, equals);
  const std::string spec = text.substr(equals + 1);
  if (spec.empty()) {
    return base::Failure{"'" + text + "': no values after '='"};
  }
  const std::vector<std::string> parts = Split(spec, ':');
  if (parts.size() == 3 && ParseNumber(parts[0]) && ParseNumber(parts[1])) {
    base::Expected<std::vector<json>> values = ParseRange(parts);
    if (!values) return base::Failure{"'" + text + "': " + values.error()};
    axis.values = std::move(*values);
    return axis;
  }
  for (const std::string& item : Split(spec, ',')) {
    if (item.empty()) {
      return base::Failure{"'" + text + "': an empty value in the list"};
    }
    axis.values.push_back(ParseItem(item));
  }
  if (static_cast<int64_t>(axis.values.size()) > kAxisValuesMax) {
    return base::Failure{"'" + text + "': more than " + std::to_string(kAxisValuesMax) + " values"};
  }
  return axis;
}

std::optional<std::vector<config::Scenario>> BuildPoints(const json& base,
                                                         const std::vector<Axis>& axes,
                                                         std::vector<std::string>* errors,
                                                         size_t errors_max) {
  Experiment shape;
  shape.axes = axes;
  const int64_t count = shape.PointCount();
  if (count > kGridPointsMax) {
    errors->push_back("the grid has " + std::to_string(count) + " points, more than " +
                      std::to_string(kGridPointsMax));
    return std::nullopt;
  }
  std::vector<config::Scenario> points;
  points.reserve(static_cast<size_t>(count));
  size_t problems = 0;
  for (int64_t p = 0; p < count; ++p) {
    const std::vector<json> values = shape.PointValues(p);
    std::vector<Edit> edits;
    std::string where;
    for (size_t a = 0; a < axes.size(); ++a) {
      edits.push_back({axes[a].pointer, values[a]});
      where += (where.empty() ? "" : " ") + EditText(edits.back());
    }
    const base::Expected<json> edited = ApplyEdits(base, edits);
    if (!edited) {
      // A pointer that names no place fails at every point: say it once.
      errors->push_back("--vary " + edited.error());
      return std::nullopt;
    }
    scenario::LoadResult loaded = scenario::LoadScenarioText(edited->dump());
    if (!loaded.ok()) {
      for (const scenario::Problem& problem : loaded.problems) {
        if (++problems <= errors_max) {
          errors->push_back("--vary " + where + ": " +
                            (problem.pointer.empty() ? "" : problem.pointer + ": ") +
                            problem.message);
        }
      }
      continue;
    }
    points.push_back(std::move(*loaded.scenario));
  }
  if (problems > errors_max) {
    errors->push_back("... and " + std::to_string(problems - errors_max) + " more problems");
  }
  if (problems > 0) return std::nullopt;
  return points;
}

}  // namespace drainsim::experiments
