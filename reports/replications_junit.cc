#include "reports/replications_junit.h"

#include "reports/junit_report.h"
#include "reports/metrics.h"
#include "reports/xml_escape.h"

namespace drainsim::reports {

namespace {

using experiments::ReplicatedExpectation;
using experiments::ReplicationsResult;

std::string Attribute(const char* name, const std::string& value) {
  return std::string(" ") + name + "=\"" + XmlEscape(value, XmlFlavour::kXml) + "\"";
}

std::string Counts(size_t tests, size_t failures) {
  return Attribute("tests", std::to_string(tests)) +
         Attribute("failures", std::to_string(failures)) + Attribute("errors", "0") +
         Attribute("skipped", "0") + Attribute("time", "0");
}

std::string Figure(bool defined, double value) { return defined ? Decimal(value) : "undefined"; }

std::string Case(const ReplicationsResult& r, const ReplicatedExpectation& x) {
  const bool any = x.measured.count > 0;
  std::string out = "    <testcase" + Attribute("classname", "drainsim." + r.scenario_name) +
                    Attribute("name", x.text) + Attribute("time", "0") + ">\n";
  out += CaseProperties({{"value", Figure(any, x.measured.mean)},
                         {"value_min", Figure(any, x.measured.min)},
                         {"value_max", Figure(any, x.measured.max)},
                         {"bound", x.bound},
                         {"unit", x.unit},
                         {"passed", std::to_string(x.passed)},
                         {"replications", std::to_string(x.runs)}});
  if (x.first_failure) {
    const std::string message = "passed " + std::to_string(x.passed) + " of " +
                                std::to_string(x.runs) + " replications; first failed in " +
                                "replication " + std::to_string(*x.first_failure);
    out += "      <failure" + Attribute("message", message) + Attribute("type", "expectation") +
           ">" +
           XmlEscape(x.text + "\n" + message + "\nreproduce: " + x.first_failure_reproduce,
                     XmlFlavour::kXml) +
           "</failure>\n";
  }
  return out + "    </testcase>\n";
}

std::string SuiteProperty(const char* name, const std::string& value) {
  return "      <property" + Attribute("name", name) + Attribute("value", value) + "/>\n";
}

}  // namespace

std::string ReplicationsJunit(const ReplicationsResult& r) {
  const size_t failures = static_cast<size_t>(r.FailedExpectations());
  const size_t tests = r.expectations.empty() ? 1 : r.expectations.size();
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites" + Attribute("name", "drainsim") + Counts(tests, failures) + ">\n";
  out += "  <testsuite" + Attribute("name", r.scenario_name) + Counts(tests, failures) + ">\n";
  out += "    <properties>\n";
  out += SuiteProperty("replications", std::to_string(r.replications));
  out += SuiteProperty("base_seed", std::to_string(r.base_seed));
  out += SuiteProperty("confidence", Decimal(r.confidence));
  out += SuiteProperty("scenario_path", r.scenario_path);
  out += SuiteProperty("scenario_hash", r.scenario_hash);
  out += SuiteProperty("drainsim_version", r.drainsim_version);
  out += "    </properties>\n";
  if (r.expectations.empty()) {
    out += "    <testcase" + Attribute("classname", "drainsim." + r.scenario_name) +
           Attribute("name", std::to_string(r.replications) +
                                 " replications completed (the scenario has no expectations)") +
           Attribute("time", "0") + "/>\n";
  }
  for (const ReplicatedExpectation& x : r.expectations) out += Case(r, x);
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace drainsim::reports
