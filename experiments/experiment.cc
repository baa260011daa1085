#include "experiments/experiment.h"

#include <charconv>

#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

using nlohmann::json;

constexpr int64_t kRunsMax = 10'000'000;

std::optional<Better> BetterFromName(const std::string& name) {
  for (Better b : {Better::kLower, Better::kHigher, Better::kNone}) {
    if (BetterName(b) == name) return b;
  }
  return std::nullopt;
}

}  // namespace

base::Expected<Experiment> ExperimentFromJson(const json& j) {
  try {
    Experiment e;
    e.command = j.at("command").get<std::string>();
    if (e.command != "run" && e.command != "sweep") {
      return base::Failure{"unknown experiment command '" + e.command + "'"};
    }
    e.scenario_name = j.at("scenario").at("name").get<std::string>();
    e.scenario_path = j.at("scenario").at("path").get<std::string>();
    e.scenario_hash = j.at("scenario").at("hash").get<std::string>();
    e.drainsim_version = j.at("drainsim_version").get<std::string>();
    e.base_seed = j.at("base_seed").get<uint64_t>();
    e.replications = j.at("replications").get<int64_t>();
    e.confidence = j.at("confidence").get<double>();
    for (const json& m : j.at("metrics")) {
      const std::optional<Better> better = BetterFromName(m.at("better").get<std::string>());
      if (!better) {
        return base::Failure{"unknown direction of better '" + m.at("better").get<std::string>() +
                             "'"};
      }
      e.metrics.push_back({m.at("name").get<std::string>(), *better});
    }
    e.expectations = j.at("expectations").get<std::vector<std::string>>();
    for (const json& c : j.at("expectation_columns")) {
      e.expectation_columns.push_back(
          {c.at("bound").get<std::string>(), c.at("unit").get<std::string>()});
    }
    if (e.expectation_columns.size() != e.expectations.size()) {
      return base::Failure{"expectation_columns has " +
                           std::to_string(e.expectation_columns.size()) + " entries for " +
                           std::to_string(e.expectations.size()) + " expectations"};
    }
    for (const json& a : j.at("vary")) {
      Axis axis{a.at("pointer").get<std::string>(), a.at("values").get<std::vector<json>>()};
      if (axis.values.empty()) {
        return base::Failure{"axis " + axis.pointer + " has no values"};
      }
      e.axes.push_back(std::move(axis));
    }
    if (const json& stop = j.at("until_ci_width"); !stop.is_null()) {
      e.stop = CiStop{stop.at("width").get<double>(), stop.at("replications_max").get<int64_t>(),
                      stop.at("met").get<bool>()};
    }
    // The command line's own limits: a part file is input too, and whatever it says is
    // allocated (a record per run) and rendered (a replicated run has no grid).
    if (e.replications < 1 || e.replications > kReplicationsMax ||
        !ConfidenceInRange(e.confidence)) {
      return base::Failure{"replications must be in 1..1000000 and the confidence in [0.5, 1)"};
    }
    if (e.command == "run" && !e.axes.empty()) {
      return base::Failure{"a replicated run has no grid, and this one varies " +
                           e.axes.front().pointer};
    }
    int64_t runs = e.replications;
    for (const Axis& axis : e.axes) {
      const auto size = static_cast<int64_t>(axis.values.size());
      if (size > kRunsMax / runs) {
        return base::Failure{"more than 10000000 runs"};
      }
      runs *= size;
    }
    return e;
  } catch (const json::exception& ex) {
    return base::Failure{std::string("not an experiment description: ") + ex.what()};
  }
}

base::Expected<Shard> ParseShard(const std::string& text) {
  const size_t slash = text.find('/');
  auto number = [](std::string_view digits, int64_t* value) {
    if (digits.empty()) return false;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), *value);
    return ec == std::errc() && end == digits.data() + digits.size();
  };
  Shard shard;
  if (slash == std::string::npos ||
      !number(std::string_view(text).substr(0, slash), &shard.number) ||
      !number(std::string_view(text).substr(slash + 1), &shard.count)) {
    return base::Failure{"'" + text + "' is not i/N (for example 1/4: the first of four shards)"};
  }
  if (shard.number == 0 && shard.count >= 1 && shard.count <= 1'000'000) {
    // The one mistake worth its own message: a 0-based index from a batch engine.
    return base::Failure{"'" + text + "': shards are numbered from 1, so i is in 1..N (the first " +
                         "of " + std::to_string(shard.count) + " is 1/" +
                         std::to_string(shard.count) + ")"};
  }
  if (shard.count < 1 || shard.count > 1'000'000 || shard.number < 1 ||
      shard.number > shard.count) {
    return base::Failure{"'" + text +
                         "': need 1 <= N <= 1000000 and 1 <= i <= N (shards are numbered from 1)"};
  }
  return shard;
}

}  // namespace drainsim::experiments
