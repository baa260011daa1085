// `drainsim fit --into`'s merge (experiments/fit_merge.h) on hand-made fragments: a fitted kind's
// errors come from the fit alone, also where the scenario's `errors` fault names no kind (null:
// every kind), which must not add its probability to the fitted one's.
#include "experiments/fit_merge.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace drainsim::experiments {
namespace fit_merge_test {
namespace {

using nlohmann::json;

// Two kinds; an errors fault for every kind (`kind` as given: null, or absent), with a window.
std::string Scenario(const std::string& kind_member) {
  return R"({"format_version": 1, "name": "merge", "seed": 1, "run": {"until_s": 100},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 5}}},
              "mail": {"handler": {"cpu_ms": {"constant": 2}}}},
    "producers": [{"kind": "job", "constant": {"rate_per_s": 1}},
                  {"kind": "mail", "constant": {"rate_per_s": 1}}],
    "workers": {"count": 2},
    "faults": [{"type": "errors", )" +
         kind_member + R"("probability": 0.2, "error": "transient",
                "from_s": 10, "until_s": 50},
               {"type": "worker_crash", "at_s": 20}]})";
}

// job fitted: a transient fault of 0.08, a lognormal handler and a Poisson producer.
constexpr const char* kJobFragment = R"({"kinds": {"job": {"handler": {"cpu_ms":
    {"lognormal": {"mu": 1, "sigma": 0.5}}, "validate_ms": {"constant": 0}, "db_ops": 0,
    "downstream_calls": 0}}},
  "faults": [{"type": "errors", "kind": "job", "error": "transient", "probability": 0.08}],
  "producers": [{"kind": "job", "poisson": {"rate_per_s": 1}}]})";

// The errors faults that apply to `kind` (theirs or every kind's).
std::vector<json> ErrorsOf(const json& scenario, const std::string& kind) {
  std::vector<json> out;
  for (const json& f : scenario.at("faults")) {
    if (f.at("type") != "errors") continue;
    if (!f.contains("kind") || f["kind"].is_null() || f["kind"] == kind) out.push_back(f);
  }
  return out;
}

TEST_CASE("fit --into: an errors fault for every kind no longer adds to a fitted kind's",
          "[fit][merge]") {
  for (const std::string& kind_member : {std::string(R"("kind": null, )"), std::string()}) {
    INFO("kind member: " << kind_member);
    const base::Expected<std::string> merged =
        MergeFitInto(Scenario(kind_member), "s.json", kJobFragment);
    INFO((merged.ok() ? std::string() : merged.error()));
    REQUIRE(merged.ok());
    const json out = json::parse(*merged);
    const std::vector<json> job = ErrorsOf(out, "job");
    REQUIRE(job.size() == 1);  // the fitted one only, not the fitted one and the scenario's
    CHECK(job[0]["probability"] == 0.08);
    // mail was not fitted: it keeps the scenario's fault, window and all, as its own.
    const std::vector<json> mail = ErrorsOf(out, "mail");
    REQUIRE(mail.size() == 1);
    CHECK(mail[0]["kind"] == "mail");
    CHECK(mail[0]["probability"] == 0.2);
    CHECK(mail[0]["from_s"] == 10);
    CHECK(mail[0]["until_s"] == 50);
    CHECK(out["faults"][0] == mail[0]);  // where the scenario had it, before the other faults
    CHECK(out["faults"][1]["type"] == "worker_crash");
  }
}

TEST_CASE("fit --into: every kind fitted drops an errors fault for every kind", "[fit][merge]") {
  const std::string fragment = R"({"kinds": {
      "job": {"handler": {"cpu_ms": {"constant": 4}}}, "mail": {"handler": {"cpu_ms": {"constant": 1}}}},
    "faults": [], "producers": []})";
  const base::Expected<std::string> merged =
      MergeFitInto(Scenario(R"("kind": null, )"), "s.json", fragment);
  INFO((merged.ok() ? std::string() : merged.error()));
  REQUIRE(merged.ok());
  const json out = json::parse(*merged);
  CHECK(ErrorsOf(out, "job").empty());  // the fit saw no failures: none are added back
  CHECK(ErrorsOf(out, "mail").empty());
  REQUIRE(out["faults"].size() == 1);
  CHECK(out["faults"][0]["type"] == "worker_crash");
}

}  // namespace
}  // namespace fit_merge_test
}  // namespace drainsim::experiments
