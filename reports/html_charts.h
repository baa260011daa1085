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
//  (4) A figure's `sources` are its chart's series, in order: each series is ChartValue() of its
//      source at every sample (down-sampled), so a reader (the interactive layer,
//      reports/chart_data.h) can read the same values at full precision from the samples.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reports/metrics.h"
#include "reports/report_input.h"
#include "reports/svg_chart.h"

namespace drainsim::reports {

// Where a chart series' values come from: a column of the run's series (SeriesColumns(), the
// columns of report.json's "series" and of series.csv), times a factor.
struct SeriesSource {
  std::string column;        // "depth", "db_utilisation"
  double factor = 1;         // 100 for a share drawn in %
  bool zero_is_gap = false;  // the live latencies: 0 means that no query completed (a gap)
};

// The value a chart draws for `source` at sample s: the column's value times the factor, or NaN
// where the chart has a gap (contract 2). With `as_reported`, the column's value is first rounded
// as report.json writes it (Fixed()), so a reader of report.json finds the same number.
// REQUIRES: column is the SeriesColumn named source.column
double ChartValue(const SeriesColumn& column, const SeriesSource& source, const model::Sample& s,
                  bool as_reported);

struct ChartFigure {
  svg::LineChart chart;
  std::string caption;                // one or two sentences: what is drawn and how to read it
  std::vector<SeriesSource> sources;  // one per chart.series, in order (contract 4)
};

struct RunCharts {
  std::vector<ChartFigure> figures;
  std::vector<std::string> notes;  // faults active the whole run: "ack_loss (p=0.0005)"
};

// REQUIRES: max_points >= 2
RunCharts ChartsOf(const ReportInput& input, size_t max_points = 2000);

}  // namespace drainsim::reports
