#include "reports/junit_report.h"

#include "reports/health.h"
#include "reports/metrics.h"

namespace drainsim::reports {

namespace {

std::string Attribute(const char* name, const std::string& value) {
  return std::string(" ") + name + "=\"" + XmlEscape(value, XmlFlavour::kXml) + "\"";
}

std::string Property(const char* name, const std::string& value, const char* indent = "      ") {
  return indent + std::string("<property") + Attribute("name", name) + Attribute("value", value) +
         "/>\n";
}

std::string Counts(size_t tests, size_t failures) {
  return Attribute("tests", std::to_string(tests)) +
         Attribute("failures", std::to_string(failures)) + Attribute("errors", "0") +
         Attribute("skipped", "0") + Attribute("time", "0");
}

std::string FailureDetails(const Verdict& v, const ReportInput& input) {
  return v.text + "\nmeasured: " + v.measured_text + "\nbound: " + BoundsText(v.bounds) +
         "\nreason: " + v.reason + "\nseed: " + std::to_string(input.results.seed) +
         "\nreproduce: " + input.reproduce;
}

}  // namespace

std::string CaseProperties(const std::vector<std::pair<std::string, std::string>>& properties) {
  std::string out = "      <properties>\n";
  for (const auto& [name, value] : properties) {
    out += Property(name.c_str(), value, "        ");
  }
  return out + "      </properties>\n";
}

std::string JunitReport(const ReportInput& input) {
  const std::string& scenario = input.results.scenario_name;
  const std::string classname = "drainsim." + scenario;
  const size_t failures = CountFailed(input.verdicts);
  const size_t tests = input.verdicts.empty() ? 1 : input.verdicts.size();

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites" + Attribute("name", "drainsim") + Counts(tests, failures) + ">\n";
  out += "  <testsuite" + Attribute("name", scenario) + Counts(tests, failures) + ">\n";
  out += "    <properties>\n";
  out += Property("seed", std::to_string(input.results.seed));
  out += Property("fingerprint", Hex16(input.results.fingerprint));
  out += Property("scenario_path", input.context.scenario_path);
  out += Property("scenario_hash", input.context.scenario_hash);
  out += Property("drainsim_version", input.context.drainsim_version);
  out += Property("reproduce", input.reproduce);
  out += "    </properties>\n";
  if (input.verdicts.empty()) {
    out += "    <testcase" + Attribute("classname", classname) +
           Attribute("name", "run completed (the scenario has no expectations)") +
           Attribute("time", "0") + "/>\n";
  }
  for (const Verdict& v : input.verdicts) {
    out += "    <testcase" + Attribute("classname", classname) + Attribute("name", v.text) +
           Attribute("time", "0") + ">\n";
    out += CaseProperties({{"value", v.measured_text},
                           {"bound", BoundsText(v.bounds)},
                           {"unit", std::string(UnitOf(v.metric))}});
    if (!v.passed) {
      out += "      <failure" + Attribute("message", FailureMessage(v)) +
             Attribute("type", "expectation") + ">" +
             XmlEscape(FailureDetails(v, input), XmlFlavour::kXml) + "</failure>\n";
    }
    out += "    </testcase>\n";
  }
  // Health findings (reports/health.h): read by people, never counted as failures.
  const std::string findings = FindingsLine(HealthFindings(input.results, input.verdicts));
  if (!findings.empty())
    out += "    <system-out>" + XmlEscape(findings, XmlFlavour::kXml) + "</system-out>\n";
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace drainsim::reports
