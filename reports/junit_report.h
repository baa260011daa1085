// junit.xml: the expectations as JUnit XML, the format GitHub, GitLab and Jenkins test
// reporting read.
//
// Shape:
//   <testsuites name="drainsim" tests= failures= errors="0" skipped="0" time="0">
//     <testsuite name=SCENARIO tests= failures= errors="0" skipped="0" time="0">
//       <properties> seed, fingerprint, scenario_path, scenario_hash, drainsim_version,
//                    reproduce </properties>
//       <testcase classname="drainsim.SCENARIO" name=EXPECTATION TEXT time="0">
//         <properties> value, bound, unit </properties>
//         <failure message="measured X, bound Y" type="expectation">details</failure>  (failed)
//       </testcase>
//
// Contract:
//  (1) One test case per expectation, in the scenario's order. A scenario without expectations
//      gets one passing case, "run completed (the scenario has no expectations)", so that
//      reporters that refuse an empty report (Jenkins' junit step) still see the run.
//  (2) Deterministic: no timestamps, no host names, every time="0" (simulated time is not a
//      test's duration).
//  (3) Every text is XML-escaped (& < > " '); characters XML 1.0 forbids (control characters
//      other than tab, LF and CR) become U+FFFD. The output is UTF-8 well-formed XML.
//  (4) Every expectation's case carries <properties> with `value` (the measured figure as the
//      verdict prints it: "24.95", or "undefined", "not measured", "no samples"), `bound`
//      (BoundsText: "<= 1800") and `unit` (reports/metrics.h UnitOf: "s", "count", ...), so a
//      CI dashboard can trend the figure; properties come before <failure>, as the common
//      JUnit schema (Jenkins, GitLab, GitHub reporters) orders a test case's children.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "reports/report_input.h"
#include "reports/xml_escape.h"  // XmlEscape(..., XmlFlavour::kXml): contract 3

namespace drainsim::reports {

std::string JunitReport(const ReportInput& input);

// A test case's <properties> block, indented for a case inside a suite: one <property name=
// value=/> per pair, in order, every text escaped. Shared with the replications' JUnit.
std::string CaseProperties(const std::vector<std::pair<std::string, std::string>>& properties);

}  // namespace drainsim::reports
