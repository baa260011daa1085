#include "reports/replications_junit.h"

#include "reports/junit_report.h"
#include "reports/metrics.h"
#include "reports/xml_escape.h"

namespace drainsim::reports {

namespace {

using experiments::ReplicatedExpectation;
using experiments::ReplicationsResult;

std::string ReplicationsAttribute(const char* name, const std::string& value) {
  return std::string(" ") + name + "=\"" + XmlEscape(value, XmlFlavour::kXml) + "\"";
}

std::string ReplicationsCounts(size_t tests, size_t failures) {
  return ReplicationsAttribute("tests", std::to_string(tests)) +
         ReplicationsAttribute("failures", std::to_string(failures)) +
         ReplicationsAttribute("errors", "0") + ReplicationsAttribute("skipped", "0") +
         ReplicationsAttribute("time", "0");
}

std::string Figure(bool defined, double value) { return defined ? Decimal(value) : "undefined"; }

std::string Case(const ReplicationsResult& r, const ReplicatedExpectation& x) {
  const bool any = x.measured.count > 0;
  std::string out =
      "    <testcase" + ReplicationsAttribute("classname", "drainsim." + r.scenario_name) +
      ReplicationsAttribute("name", x.text) + ReplicationsAttribute("time", "0") + ">\n";
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
    out += "      <failure" + ReplicationsAttribute("message", message) +
           ReplicationsAttribute("type", "expectation") + ">" +
           XmlEscape(x.text + "\n" + message + "\nreproduce: " + x.first_failure_reproduce,
                     XmlFlavour::kXml) +
           "</failure>\n";
  }
  return out + "    </testcase>\n";
}

std::string SuiteProperty(const char* name, const std::string& value) {
  return "      <property" + ReplicationsAttribute("name", name) +
         ReplicationsAttribute("value", value) + "/>\n";
}

}  // namespace

std::string ReplicationsJunit(const ReplicationsResult& r) {
  const size_t failures = static_cast<size_t>(r.FailedExpectations());
  const size_t tests = r.expectations.empty() ? 1 : r.expectations.size();
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites" + ReplicationsAttribute("name", "drainsim") +
         ReplicationsCounts(tests, failures) + ">\n";
  out += "  <testsuite" + ReplicationsAttribute("name", r.scenario_name) +
         ReplicationsCounts(tests, failures) + ">\n";
  out += "    <properties>\n";
  out += SuiteProperty("replications", std::to_string(r.replications));
  out += SuiteProperty("base_seed", std::to_string(r.base_seed));
  out += SuiteProperty("confidence", Decimal(r.confidence));
  out += SuiteProperty("scenario_path", r.scenario_path);
  out += SuiteProperty("scenario_hash", r.scenario_hash);
  out += SuiteProperty("drainsim_version", r.drainsim_version);
  out += "    </properties>\n";
  if (r.expectations.empty()) {
    out += "    <testcase" + ReplicationsAttribute("classname", "drainsim." + r.scenario_name) +
           ReplicationsAttribute("name",
                                 std::to_string(r.replications) +
                                     " replications completed (the scenario has no expectations)") +
           ReplicationsAttribute("time", "0") + "/>\n";
  }
  for (const ReplicatedExpectation& x : r.expectations) out += Case(r, x);
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace drainsim::reports
