#include "tests/scenario/test_support.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace drainsim::scenario::testing {

std::string SourcePath(std::string_view relative) {
  return std::string(DRAINSIM_SOURCE_DIR) + "/" + std::string(relative);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<std::string> ExampleScenarioPaths() {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(SourcePath("scenarios"))) {
    const std::filesystem::path& path = entry.path();
    if (path.extension() == ".json" && path.filename() != "schema.json") {
      paths.push_back(path.string());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

Json PresetScenario(std::string_view preset) {
  Json s = Json::parse(R"({
    "format_version": 1,
    "name": "minimal",
    "run": {"until_s": 3600},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 5}}}},
    "producers": [{"kind": "job", "poisson": {"rate_per_s": 1}}],
    "workers": {"count": 2}
  })");
  if (!preset.empty()) s["broker"] = {{"preset", std::string(preset)}};
  return s;
}

Json BaseScenario() {
  return Json::parse(R"({
    "format_version": 1,
    "name": "base",
    "run": {"until_s": 3600},
    "kinds": {
      "job": {"idempotency": "claim", "key_pattern": "job:{id}",
              "handler": {"db_ops": 1, "db_op_ms": {"constant": 5}, "downstream_calls": 1}}
    },
    "producers": [{"kind": "job", "poisson": {"rate_per_s": 1}}],
    "workers": {"count": 2, "prefetch": 4, "concurrency": 2},
    "database": {"connections": 4},
    "downstream": {"call_ms": {"constant": 10}}
  })");
}

Json With(Json document, const std::string& pointer, Json value) {
  document[Json::json_pointer(pointer)] = std::move(value);
  return document;
}

Json Without(Json document, const std::string& pointer) {
  const Json::json_pointer path(pointer);
  document.at(path.parent_pointer()).erase(path.back());
  return document;
}

LoadResult Load(const Json& document) { return LoadScenarioText(document.dump()); }

std::string Describe(const LoadResult& result) {
  std::string out = result.ok() ? "loaded without problems" : "problems:";
  for (const Problem& p : result.problems) out += "\n  " + FormatProblem("<text>", p);
  return out;
}

bool HasProblem(const LoadResult& result, std::string_view pointer, std::string_view fragment) {
  return std::any_of(result.problems.begin(), result.problems.end(), [&](const Problem& p) {
    return p.pointer == pointer && p.message.find(fragment) != std::string::npos;
  });
}

void CheckRoundTrip(const config::Scenario& s) {
  const std::string dump = DumpCanonical(s);
  const LoadResult again = LoadScenarioText(dump);
  INFO(dump);
  INFO(Describe(again));
  REQUIRE(again.ok());
  CHECK(*again.scenario == s);
  CHECK(DumpCanonical(*again.scenario) == dump);
}

config::Scenario MustLoad(const Json& document) {
  const LoadResult r = Load(document);
  INFO(Describe(r));
  REQUIRE(r.ok());
  return *r.scenario;
}

}  // namespace drainsim::scenario::testing
