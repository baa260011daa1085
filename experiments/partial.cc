#include "experiments/partial.h"

#include <charconv>

#include "reports/metrics.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

using nlohmann::json;

// Version 2: shards are numbered from 1 ("shard": {"number", "count"}); version 1 held a 0-based
// "index". A version-1 part was written by another binary, which merge refuses in any case.
constexpr int kPartialVersion = 2;

std::optional<uint64_t> ParseUnsigned(const std::string& text, int base) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// One run of a part file, checked against the experiment's metrics and expectations (its index
// is checked by the caller). Throws json::exception on a missing or mistyped member.
base::Expected<RunRecord> ReadRecord(const json& run, const Experiment& experiment) {
  const size_t metric_count = experiment.metrics.size();
  const size_t expectation_count = experiment.expectations.size();
  RunRecord r;
  const int64_t index = run.at("index").get<int64_t>();
  const std::optional<uint64_t> seed = ParseUnsigned(run.at("seed").get<std::string>(), 10);
  const std::optional<uint64_t> fingerprint =
      ParseUnsigned(run.at("fingerprint").get<std::string>(), 16);
  if (!seed || !fingerprint) {
    return base::Failure{"run " + std::to_string(index) + ": bad seed or fingerprint"};
  }
  r.seed = *seed;
  r.fingerprint = *fingerprint;
  for (const json& v : run.at("values")) {
    r.values.push_back(v.is_null() ? std::nullopt : std::optional<double>(v.get<double>()));
  }
  r.passed = run.at("passed").get<std::vector<bool>>();
  if (r.values.size() != metric_count || r.passed.size() != expectation_count) {
    return base::Failure{"run " + std::to_string(index) + " has " +
                         std::to_string(r.values.size()) + " values and " +
                         std::to_string(r.passed.size()) + " verdicts, the experiment " +
                         std::to_string(metric_count) + " metrics and " +
                         std::to_string(expectation_count) + " expectations"};
  }
  for (const json& v : run.at("measured")) {
    r.measured.push_back(v.is_null() ? std::nullopt : std::optional<double>(v.get<double>()));
  }
  if (r.measured.size() != expectation_count) {
    return base::Failure{"run " + std::to_string(index) + " has " +
                         std::to_string(r.measured.size()) + " measured figures, the " +
                         "experiment " + std::to_string(expectation_count) + " expectations"};
  }
  return r;
}

}  // namespace

std::string PartialFileName(const Shard& shard) {
  return "part-" + std::to_string(shard.number) + "-of-" + std::to_string(shard.count) + ".json";
}

std::string PartialText(const Partial& p) {
  DRAINSIM_CHECK(p.indices.size() == p.records.size());
  json runs = json::array();
  for (size_t k = 0; k < p.records.size(); ++k) {
    const RunRecord& r = p.records[k];
    json values = json::array();
    for (const std::optional<double>& v : r.values) values.push_back(v ? json(*v) : json(nullptr));
    json measured = json::array();
    for (const std::optional<double>& v : r.measured) {
      measured.push_back(v ? json(*v) : json(nullptr));
    }
    runs.push_back({{"index", p.indices[k]},
                    {"seed", std::to_string(r.seed)},
                    {"fingerprint", reports::Hex16(r.fingerprint)},
                    {"values", std::move(values)},
                    {"passed", r.passed},
                    {"measured", std::move(measured)}});
  }
  const json document = {{"drainsim_partial", kPartialVersion},
                         {"shard", {{"number", p.shard.number}, {"count", p.shard.count}}},
                         {"experiment", ToJson(p.experiment)},
                         {"runs", std::move(runs)}};
  return document.dump(1) + "\n";
}

base::Expected<Partial> ReadPartial(const std::string& text) {
  json document;
  try {
    document = json::parse(text);
  } catch (const json::exception& e) {
    return base::Failure{std::string("not JSON: ") + e.what()};
  }
  try {
    if (!document.is_object() || !document.contains("drainsim_partial")) {
      return base::Failure{"not a partial result (written by --shard)"};
    }
    if (document.at("drainsim_partial").get<int>() != kPartialVersion) {
      return base::Failure{"partial format version " + document.at("drainsim_partial").dump() +
                           ", this drainsim reads version " + std::to_string(kPartialVersion)};
    }
    Partial p;
    base::Expected<Experiment> experiment = ExperimentFromJson(document.at("experiment"));
    if (!experiment) return base::Failure{experiment.error()};
    p.experiment = std::move(*experiment);
    p.shard.number = document.at("shard").at("number").get<int64_t>();
    p.shard.count = document.at("shard").at("count").get<int64_t>();
    // --shard's own limit (ParseShard): Merge makes a slot per shard.
    if (p.shard.count < 1 || p.shard.count > 1'000'000 || p.shard.number < 1 ||
        p.shard.number > p.shard.count) {
      return base::Failure{"bad shard " + document.at("shard").dump()};
    }
    for (const json& run : document.at("runs")) {
      base::Expected<RunRecord> r = ReadRecord(run, p.experiment);
      if (!r) return base::Failure{r.error()};
      const int64_t index = run.at("index").get<int64_t>();
      if (index < 0 || index >= p.experiment.RunCount() || !p.shard.Holds(index) ||
          (!p.indices.empty() && index <= p.indices.back())) {
        return base::Failure{"run index " + std::to_string(index) + " does not belong in shard " +
                             std::to_string(p.shard.number) + "/" + std::to_string(p.shard.count) +
                             " (or is out of order)"};
      }
      p.indices.push_back(index);
      p.records.push_back(std::move(*r));
    }
    return p;
  } catch (const json::exception& e) {
    return base::Failure{std::string("not a partial result: ") + e.what()};
  }
}

base::Expected<Merged> Merge(const std::vector<Partial>& parts,
                             const std::vector<std::string>& names) {
  DRAINSIM_CHECK(parts.size() == names.size());
  if (parts.empty()) {
    return base::Failure{"no parts to merge"};
  }
  const Partial& first = parts.front();
  const int64_t shard_count = first.shard.count;
  std::vector<const Partial*> by_shard(static_cast<size_t>(shard_count), nullptr);
  std::vector<std::string> shard_names(static_cast<size_t>(shard_count));
  for (size_t i = 0; i < parts.size(); ++i) {
    const Partial& part = parts[i];
    if (!(part.experiment == first.experiment)) {
      return base::Failure{
          names[i] + " is a part of another experiment than " + names[0] +
          " (their descriptions differ: scenario, seed, replications, metrics, grid or "
          "drainsim version)"};
    }
    if (part.shard.count != shard_count) {
      return base::Failure{names[i] + " is shard " + std::to_string(part.shard.number) + "/" +
                           std::to_string(part.shard.count) + ", " + names[0] + " one of " +
                           std::to_string(shard_count)};
    }
    const size_t s = static_cast<size_t>(part.shard.number - 1);
    if (by_shard[s] != nullptr) {
      return base::Failure{names[i] + " and " + shard_names[s] + " are both shard " +
                           std::to_string(part.shard.number) + "/" + std::to_string(shard_count)};
    }
    by_shard[s] = &part;
    shard_names[s] = names[i];
  }
  std::string missing;
  for (int64_t s = 0; s < shard_count; ++s) {
    if (by_shard[static_cast<size_t>(s)] == nullptr) {
      missing += (missing.empty() ? "" : ", ") + std::to_string(s + 1);
    }
  }
  if (!missing.empty()) {
    return base::Failure{"missing shard(s) " + missing + " of " + std::to_string(shard_count)};
  }
  Merged merged;
  merged.experiment = first.experiment;
  const int64_t run_count = first.experiment.RunCount();
  merged.records.resize(static_cast<size_t>(run_count));
  std::vector<bool> present(static_cast<size_t>(run_count), false);
  for (const Partial* part : by_shard) {
    for (size_t k = 0; k < part->indices.size(); ++k) {
      const size_t index = static_cast<size_t>(part->indices[k]);
      present[index] = true;
      merged.records[index] = part->records[k];
    }
  }
  for (int64_t index = 0; index < run_count; ++index) {
    if (!present[static_cast<size_t>(index)]) {
      const int64_t s = index % shard_count;
      return base::Failure{shard_names[static_cast<size_t>(s)] + " lacks run " +
                           std::to_string(index) + " of its shard (an incomplete part)"};
    }
  }
  return merged;
}

}  // namespace drainsim::experiments
