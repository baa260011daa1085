// junit.xml for `drainsim run --replications N --format junit`: one test case per expectation,
// over every replication, in the shape of a single run's junit.xml (reports/junit_report.h).
//
// Shape:
//   <testsuites name="drainsim" tests= failures= errors="0" skipped="0" time="0">
//     <testsuite name=SCENARIO ...>
//       <properties> replications, base_seed, confidence, scenario_path, scenario_hash,
//                    drainsim_version </properties>
//       <testcase classname="drainsim.SCENARIO" name=EXPECTATION TEXT time="0">
//         <properties> value, value_min, value_max, bound, unit, passed, replications
//         </properties>
//         <failure message="passed 3 of 5 replications; first failed in replication 2"
//                  type="expectation">the reproduction command</failure>  (if any failed)
//       </testcase>
//
// Contract:
//  (1) A case fails iff its expectation failed in at least one replication: the rule of the
//      command's exit code (reports/replications_report.h contract (2)). `passed` is the
//      count of replications where it held, `replications` the count run.
//  (2) `value` is the mean of the expectation's figure over the replications where it had one,
//      `value_min` and `value_max` its extremes ("undefined" when no replication had one); the
//      same figure a single run's case calls `value`, so a dashboard can trend either.
//  (3) As a single run's JUnit: deterministic, every time="0", every text escaped, and a
//      scenario without expectations gets one passing case.
#pragma once

#include <string>

#include "experiments/results/replications_result.h"

namespace drainsim::reports {

std::string ReplicationsJunit(const experiments::ReplicationsResult& result);

}  // namespace drainsim::reports
