// What reports may know of the scenario besides Results: the age alert's threshold and when each
// fault was active, for charts (the HTML report shades fault windows and draws the alert line)
// and traces. Read from the scenario as written, never from the simulation.
//
// Contract:
//  (1) ScenarioMarksOf is a pure function of the scenario: faults in the scenario's order.
//  (2) A default ScenarioMarks (from_scenario false) means "no scenario at hand"; a writer then
//      falls back to the series' fault_active flags and draws no alert line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/config/config.h"

namespace drainsim::reports {

// One fault of the scenario, in seconds of simulated time.
struct FaultSpan {
  std::string type;    // the JSON `type`: "db_slowdown"
  std::string detail;  // what it does, briefly: "x25", "500 purge, transient", "p=0.0005"
  double from_s = 0;
  // The end of its window; nullopt for a fault that starts at from_s and has no window (a
  // broker restart without downtime, a worker crash at an instant, synthetic failures, poison):
  // an instant to mark rather than a range to shade.
  std::optional<double> until_s;
};

struct ScenarioMarks {
  bool from_scenario = false;         // false: the writer has no scenario; see contract (2)
  double run_until_s = 0;             // the scenario's run.until_s
  std::optional<double> age_alert_s;  // alerts.oldest_age_s, when set
  std::vector<FaultSpan> faults;
  // broker.preset, for the OTLP export's messaging.system (reports/otlp_traces.h).
  std::optional<config::BrokerPreset> broker_preset;
};

ScenarioMarks ScenarioMarksOf(const config::Scenario& scenario);

}  // namespace drainsim::reports
