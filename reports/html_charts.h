// The charts of the HTML report: the run's sampled series over simulated time, one chart per
// question a rehearsal asks, with fault windows shaded, fault instants marked and drains
// highlighted on every chart.
//
//   depth           ready, delayed, DLQ and parked messages (messages)
//   oldest-age      age of the oldest message in the pipeline (s), the age alert's threshold
//   attempts        first attempts and retries per second: the retry storm
//   busy            busy worker slots, and the database queue with a database
//   downstream      downstream calls and 429s per second        only with downstream calls
//   db-utilisation  database utilisation (%)                    only with a database
//   live-latency    live-traffic p50 and p99 latency (ms)       only with live traffic
//   live-errors     live queries timed out or refused per second  only with live traffic
//   dlq-flow        DLQ inflow and outflow (messages/s)
//   drain-rate      replays per second (messages/s)             only with drains
// Rate charts clip a lone spike (svg_chart.h, contract 7); worker crashes drawn at random are
// unlabelled markers, one per strike.
//
// Contract:
//  (1) A pure function of the ReportInput (and max_points): same input, same charts.
//  (2) The charts are those of the table above, in its order, and none when the run has no
//      samples; figures over an interval skip the sample at t = 0, which closes none, and the
//      live latencies are gaps where no live query completed (the series holds 0 there).
//  (3) Fault windows come from ReportContext::marks when it is from the scenario, else from the
//      samples' fault_active flags. A window that covers the whole run is not shaded (it would
//      tint everything) but named in `notes`. Fault windows, fault instants and drains are
//      clipped to the run, which may end before run.until_s (run.events_max): one that starts
//      after the run's end is not drawn, one that straddles it is shaded up to it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reports/report_input.h"
#include "reports/svg_chart.h"

namespace drainsim::reports {

struct ChartFigure {
  svg::LineChart chart;
  std::string caption;  // one or two sentences: what is drawn and how to read it
};

struct RunCharts {
  std::vector<ChartFigure> figures;
  std::vector<std::string> notes;  // faults active the whole run: "ack_loss (p=0.0005)"
};

// REQUIRES: max_points >= 2
RunCharts ChartsOf(const ReportInput& input, size_t max_points = 2000);

}  // namespace drainsim::reports
