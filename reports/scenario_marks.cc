#include "reports/scenario_marks.h"

#include "sim/config/fault_types.h"

namespace drainsim::reports {

namespace {

FaultSpan SpanOf(const config::Fault& fault, engine::Instant run_until) {
  const config::FaultTiming timing = config::TimingOf(fault, run_until);
  FaultSpan span;
  span.type = std::string(config::DescriptorOf(config::TypeOf(fault)).name);
  span.detail = config::DetailOf(fault);
  span.from_s = timing.from.seconds();
  // Poison and synthetic failures start at an instant and have no end: a mark, not a range.
  if (timing.until) span.until_s = timing.until->seconds();
  return span;
}

}  // namespace

ScenarioMarks ScenarioMarksOf(const config::Scenario& scenario) {
  ScenarioMarks marks;
  marks.from_scenario = true;
  marks.run_until_s = scenario.run.until.seconds();
  marks.broker_preset = scenario.broker.preset;
  if (scenario.alerts.oldest_age) marks.age_alert_s = scenario.alerts.oldest_age->seconds();
  for (const config::Fault& fault : scenario.faults) {
    marks.faults.push_back(SpanOf(fault, scenario.run.until));
  }
  return marks;
}

}  // namespace drainsim::reports
