// Health findings (reports/health.h): what no expectation covered, under the verdict in every
// human-facing format; an expectation on a finding's metric silences it; never a failure.
#include "reports/health.h"

#include <catch2/catch.hpp>
#include <string>

#include "reports/formats.h"
#include "reports/junit_report.h"
#include "reports/markdown_report.h"
#include "tests/reports/report_fixture.h"

namespace drainsim::reports {
namespace health_test {
namespace {

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

model::Sample At(double t_s, double utilisation) {
  model::Sample s;
  s.t_s = t_s;
  s.db_utilisation = utilisation;
  return s;
}

Verdict On(const std::string& metric) {
  Verdict v;
  v.metric = metric;
  v.passed = true;
  return v;
}

// The fixture plus a database saturated from 60 to 300 s (samples every 60 s; the one at 120 s
// covers 60..120 s) and retries at 4x.
model::Results Troubled() {
  model::Results r = testing::FixtureResults();
  r.series = {At(60, 0.5), At(120, 1.0), At(180, 0.995), At(240, 1.0), At(300, 1.0), At(360, 0.2)};
  r.attempts = 800;
  r.first_attempts = 200;
  r.retry_amplification = 4.0;
  return r;
}

TEST_CASE("health findings: each observation with its figures, in a fixed order", "[reports]") {
  const std::vector<Finding> f = HealthFindings(Troubled(), {});
  REQUIRE(f.size() == 5);
  CHECK(f[0].id == "db_saturated");
  CHECK(f[0].text == "database saturated (at least 99% busy) for 4 min (60-300 s)");
  CHECK(f[1].id == "live_errors");
  CHECK(f[1].text == "1 of 3 live queries failed (timed out or refused)");
  CHECK(f[2].id == "human_needed");
  CHECK(f[2].text == "10 messages need a human (parked or left in the DLQ)");
  CHECK(f[3].id == "dlq_refilled");
  CHECK(f[4].id == "retry_amplification");
  CHECK(f[4].text == "retries multiplied the work: 4 attempts per first attempt (800 over 200)");
}

TEST_CASE("health findings: below the thresholds there is none", "[reports]") {
  model::Results r = Troubled();
  r.series = {At(60, 1.0), At(90, 0.5)};  // saturated for 60 s only... at the bound
  CHECK(HealthFindings(r, {})[0].id == "db_saturated");
  r.series = {At(30, 0.5), At(89, 1.0), At(90, 0.5)};  // 59 s
  r.live_errors = 0;
  r.human_needed = 0;
  r.refilled = 0;
  r.retry_amplification = 3.0;  // retries exactly twice the first attempts: not more
  CHECK(HealthFindings(r, {}).empty());
}

TEST_CASE("health findings: an expectation on a finding's metric silences it", "[reports]") {
  const model::Results r = Troubled();
  const std::vector<Finding> f =
      HealthFindings(r, {On("db_utilisation"), On("human_needed"), On("attempts_per_success")});
  REQUIRE(f.size() == 2);
  CHECK(f[0].id == "live_errors");
  CHECK(f[1].id == "dlq_refilled");
}

TEST_CASE("health findings: under the verdict in Markdown, HTML, JUnit and JSON, never a failure",
          "[reports]") {
  const model::Results r = Troubled();
  const ReportContext context;
  const std::vector<Verdict> verdicts = {On("acked")};
  const ReportInput input{r, context, verdicts, "drainsim run x.json --seed 1"};
  const std::string md = MarkdownReport(input);
  CHECK(Contains(md, "**Not covered by any expectation**"));
  CHECK(Contains(md, "- database saturated (at least 99% busy) for 4 min (60-300 s)\n"));
  CHECK(md.find("Not covered") < md.find("### Expectations"));
  const std::string junit = JunitReport(input);
  CHECK(Contains(junit, "<system-out>not covered by any expectation: database saturated"));
  CHECK(Contains(junit, "failures=\"0\""));
  for (const Format& format : Formats()) {
    if (format.name == "html") {
      CHECK(Contains(format.write(input),
                     "<li>10 messages need a human (parked or left in the DLQ)</li>"));
    }
    if (format.name == "json") {
      const std::string json = format.write(input);
      CHECK(Contains(json, "\"health_findings\""));
      CHECK(Contains(json, "retries multiplied the work: 4 attempts per first attempt"));
    }
  }
}

}  // namespace
}  // namespace health_test
}  // namespace drainsim::reports
