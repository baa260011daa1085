// junit.xml: the expectations as JUnit XML, the format GitHub, GitLab and Jenkins test
// reporting read.
//
// Shape:
//   <testsuites name="drainsim" tests= failures= errors="0" skipped="0" time="0">
//     <testsuite name=SCENARIO tests= failures= errors="0" skipped="0" time="0">
//       <properties> seed, fingerprint, scenario_path, scenario_hash, drainsim_version,
//                    reproduce </properties>
//       <testcase classname="drainsim.SCENARIO" name=EXPECTATION TEXT time="0"/>
//       <testcase ...><failure message="measured X, bound Y" type="expectation">details
//       </failure></testcase>
//
// Contract:
//  (1) One test case per expectation, in the scenario's order. A scenario without expectations
//      gets one passing case, "run completed (the scenario has no expectations)", so that
//      reporters that refuse an empty report (Jenkins' junit step) still see the run.
//  (2) Deterministic: no timestamps, no host names, every time="0" (simulated time is not a
//      test's duration).
//  (3) Every text is XML-escaped (& < > " '); characters XML 1.0 forbids (control characters
//      other than tab, LF and CR) become U+FFFD. The output is UTF-8 well-formed XML.
#pragma once

#include <string>

#include "reports/report_input.h"
#include "reports/xml_escape.h"  // XmlEscape(..., XmlFlavour::kXml): contract 3

namespace drainsim::reports {

std::string JunitReport(const ReportInput& input);

}  // namespace drainsim::reports
