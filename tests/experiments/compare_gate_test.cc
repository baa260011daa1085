// `drainsim compare --fail-if-worse`: exit 1 when B is significantly worse than A on a gated
// metric, 0 when it is not (the same scenario, or B better), 2 for a name that cannot gate; the
// verdicts in every output, and --format markdown's stdout equal to comment.md.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/experiments/cli_helpers.h"

namespace drainsim::testing {
namespace compare_gate_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The metric the gate judges in most cases below.
constexpr const char* kGateMetric = "duplicate_executions";

// The small scenario with consumers that sleep through their backoff holding the message, and a
// visibility timeout of 2 s: a sleep longer than that lets the broker hand the message to another
// worker while the first still holds it, and both commit (a duplicate execution, cause
// visibility_timeout). With `attempts_max` 2 the one backoff is at most 1 s; with 8 the later
// ones reach 30 s: more retries, more duplicates (measured: 0 against 33 on average over 6
// replications, paired interval [+26.5, +40.2]).
std::string SleepingRetries(int attempts_max) {
  std::string text = kSmallScenario;
  auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
  };
  replace(R"("retry": {)", R"("broker": {"visibility_timeout_s": 2},
  "retry": {"delivery": "sleep_in_consumer",)");
  replace(R"("attempts_max": 4)", "\"attempts_max\": " + std::to_string(attempts_max));
  return text;
}

ProcessResult Compare(const std::vector<std::string>& args, const fs::path& out) {
  std::vector<std::string> full = {"compare"};
  full.insert(full.end(), args.begin(), args.end());
  full.insert(full.end(), {"--quiet", "--out", out.string()});
  return RunDrainsim(full);
}

struct Pair {
  fs::path dir;
  std::string good;
  std::string worse;
};

Pair WriteGatePair(const std::string& name) {
  Pair p;
  p.dir = FreshDir(name);
  p.good = WriteFile(p.dir / "good.json", SleepingRetries(2));
  p.worse = WriteFile(p.dir / "worse.json", SleepingRetries(8));
  return p;
}

TEST_CASE("compare --fail-if-worse: exit 1 when B is clearly worse, with the verdict everywhere",
          "[experiments][cli][compare][gate]") {
  const Pair p = WriteGatePair("gate-worse");
  const ProcessResult r = Compare({p.good, p.worse, "--replications", "6", "--fail-if-worse",
                                   std::string(kGateMetric) + ",lost"},
                                  p.dir / "out");
  INFO(r.stdout_text << r.stderr_text);
  CHECK(r.exit_code == 1);
  CHECK(r.stdout_text.find("gate (--fail-if-worse, 95% confidence):") != std::string::npos);
  CHECK(r.stdout_text.find("gate failed: B is worse than A on " + std::string(kGateMetric) +
                           "\n") != std::string::npos);
  const json report = json::parse(ReadFile((p.dir / "out" / "compare.json").string()));
  CHECK(report["gate"]["failed"] == true);
  CHECK(report["gate"]["metrics"] == json::array({kGateMetric, "lost"}));
  CHECK(report["gate"]["verdicts"][kGateMetric] == "worse");
  CHECK(report["gate"]["verdicts"]["lost"] == "no significant difference");
  const std::string comment = ReadFile((p.dir / "out" / "comment.md").string());
  CHECK(comment.find("| `" + std::string(kGateMetric) + "` (gate) |") != std::string::npos);
  CHECK(comment.find("❌ worse |") != std::string::npos);
  CHECK(comment.find("\n❌ **Gate failed**: B is worse than A on `" + std::string(kGateMetric) +
                     "`, at 95% confidence over 6 paired replications (judged: `" +
                     std::string(kGateMetric) + "`, `lost`).\n") != std::string::npos);

  // The other way round B is better: the gate passes, and says so.
  const ProcessResult back = Compare(
      {p.worse, p.good, "--replications", "6", "--fail-if-worse", kGateMetric}, p.dir / "back");
  INFO(back.stdout_text);
  CHECK(back.exit_code == 0);
  const json back_report = json::parse(ReadFile((p.dir / "back" / "compare.json").string()));
  CHECK(back_report["gate"]["verdicts"][kGateMetric] == "better");
  CHECK(back_report["gate"]["failed"] == false);
  fs::remove_all(p.dir);
}

TEST_CASE("compare --fail-if-worse: no significant difference passes, and no gate is no gate",
          "[experiments][cli][compare][gate]") {
  const Pair p = WriteGatePair("gate-same");
  // The same scenario: every difference is exactly 0.
  ProcessResult r = Compare({p.good, p.good, "--replications", "4", "--fail-if-worse",
                             "duplicate_executions,attempts,acked"},
                            p.dir / "same");
  INFO(r.stdout_text << r.stderr_text);
  CHECK(r.exit_code == 0);
  // The judged metrics in the comparison's order (the default metrics': acked first).
  CHECK(r.stdout_text.find("gate passed: B is not significantly worse than A on "
                           "acked, duplicate_executions, attempts\n") != std::string::npos);
  // Without --fail-if-worse a worse B exits 0: compare only reports.
  r = Compare({p.good, p.worse, "--replications", "4"}, p.dir / "nogate");
  CHECK(r.exit_code == 0);
  const json report = json::parse(ReadFile((p.dir / "nogate" / "compare.json").string()));
  CHECK(report["gate"].is_null());
  CHECK(ReadFile((p.dir / "nogate" / "comment.md").string()).find("\nNo gate") !=
        std::string::npos);
  fs::remove_all(p.dir);
}

TEST_CASE("compare --fail-if-worse: an unknown or directionless metric is a usage error",
          "[experiments][cli][compare][gate]") {
  const Pair p = WriteGatePair("gate-bad");
  const fs::path out = p.dir / "out";
  ProcessResult r =
      Compare({p.good, p.worse, "--replications", "2", "--fail-if-worse", "dupes"}, out);
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("--fail-if-worse dupes: ") != std::string::npos);
  // The message lists the names that can gate this pair: those with a direction.
  const size_t list = r.stderr_text.find("metrics that can gate these scenarios");
  REQUIRE(list != std::string::npos);
  const std::string gateable = r.stderr_text.substr(list);
  for (const std::string name : {"duplicate_executions", "human_needed", "acked", "attempts"}) {
    CHECK(gateable.find(" " + name + ",") != std::string::npos);
  }
  CHECK(gateable.find("published") == std::string::npos);
  CHECK(gateable.find("db_utilisation") == std::string::npos);
  r = Compare({p.good, p.worse, "--replications", "2", "--fail-if-worse", "published"}, out);
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("published: has no direction") != std::string::npos);
  r = Compare({p.good, p.worse, "--replications", "2", "--fail-if-worse", "live_p99_ms"}, out);
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("live_p99_ms") != std::string::npos);
  r = Compare({p.good, p.worse, "--replications", "2", "--format", "html"}, out);
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("--format must be text or markdown") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  fs::remove_all(p.dir);
}

TEST_CASE("compare --format markdown: stdout is comment.md, the file list on stderr",
          "[experiments][cli][compare][gate]") {
  const Pair p = WriteGatePair("gate-markdown");
  const ProcessResult r =
      Compare({p.good, p.worse, "--replications", "4", "--metric", "attempts", "--fail-if-worse",
               kGateMetric, "--format", "markdown", "--jobs", "2"},
              p.dir / "out");
  CHECK(r.exit_code == 1);
  const std::string comment = ReadFile((p.dir / "out" / "comment.md").string());
  CHECK(r.stdout_text == comment);
  CHECK(r.stderr_text.find("report: ") != std::string::npos);
  CHECK(comment.rfind("### drainsim compare: small (A) → small (B)\n\n| metric | A | B | B − A "
                      "(95% CI) | verdict |\n",
                      0) == 0);
  // --metric attempts plus the gated metric: two rows, the gated one marked.
  CHECK(comment.find("| `attempts` |") != std::string::npos);
  CHECK(comment.find("| `" + std::string(kGateMetric) + "` (gate) |") != std::string::npos);
  // --jobs changes nothing.
  const ProcessResult one =
      Compare({p.good, p.worse, "--replications", "4", "--metric", "attempts", "--fail-if-worse",
               kGateMetric, "--format", "markdown", "--jobs", "1"},
              p.dir / "one");
  CHECK(one.stdout_text == r.stdout_text);
  CHECK(ReadDir(p.dir / "one") == ReadDir(p.dir / "out"));
  fs::remove_all(p.dir);
}

}  // namespace
}  // namespace compare_gate_test
}  // namespace drainsim::testing
