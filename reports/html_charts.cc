#include "reports/html_charts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include "reports/metrics.h"
#include "reports/text_format.h"
#include "sim/base/check.h"

namespace drainsim::reports {

namespace {

using model::Sample;

// Mid-tone colours that keep a 3:1 contrast on white and on a near-black page.
constexpr const char* kBlue = "#3b82f6";
constexpr const char* kAmber = "#d97706";
constexpr const char* kMagenta = "#c026d3";
constexpr const char* kTeal = "#0d9488";
constexpr const char* kFault = "#ef4444";
constexpr const char* kDrain = "#22c55e";
constexpr const char* kAlert = "#ea580c";

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One column of the series (through SeriesColumns(), as series.csv writes it) as a chart series,
// down-sampled while it is read: a run of ten million samples never holds a copy of a column.
svg::Series FromColumn(const std::vector<Sample>& samples, const SeriesSource& source,
                       std::string label, const char* colour, size_t max_points) {
  const SeriesColumn* column = FindSeriesColumn(source.column);
  DRAINSIM_CHECK(column != nullptr);
  svg::Points points = svg::DownsampleBy(
      samples.size(), [&](size_t i) { return samples[i].t_s; },
      [&](size_t i) { return ChartValue(*column, source, samples[i], false); }, max_points);
  svg::Series series;
  series.label = std::move(label);
  series.colour = colour;
  series.x = std::move(points.x);
  series.y = std::move(points.y);
  return series;
}

// Builds the figures one after the other: Column() adds a series to the chart being built and
// notes its source; Add() moves that chart, its caption and the sources noted since the last
// Add() into the figures, so a figure's sources are its chart's series, in order.
class FigureBuilder {
 public:
  FigureBuilder(const std::vector<Sample>& samples, size_t max_points, RunCharts& out)
      : samples_(samples), max_points_(max_points), out_(out) {}

  void Column(svg::LineChart& chart, std::string_view column, std::string label, const char* colour,
              double factor = 1, bool zero_is_gap = false) {
    SeriesSource source{std::string(column), factor, zero_is_gap};
    chart.series.push_back(FromColumn(samples_, source, std::move(label), colour, max_points_));
    sources_.push_back(std::move(source));
  }

  void Add(svg::LineChart chart, std::string caption) {
    DRAINSIM_CHECK(sources_.size() == chart.series.size());
    out_.figures.push_back({std::move(chart), std::move(caption), std::move(sources_)});
    sources_.clear();
  }

 private:
  const std::vector<Sample>& samples_;
  size_t max_points_;
  RunCharts& out_;
  std::vector<SeriesSource> sources_;  // the chart being built's, since the last Add()
};

// What every chart shares: the time axis, fault windows, fault instants and drains.
struct Decorations {
  double x_max = 1;
  std::vector<svg::Band> bands;
  std::vector<svg::Marker> markers;
  std::vector<std::string> notes;
};

bool CoversRun(double from_s, double until_s, double x_max) {
  return from_s <= 0 && until_s >= x_max;
}

void FaultsFromScenario(const ScenarioMarks& marks, Decorations& d) {
  for (const FaultSpan& f : marks.faults) {
    const std::string name = f.type + (f.detail.empty() ? "" : " (" + f.detail + ")");
    // The run may stop (run.events_max) before a fault's time comes: nothing to draw then.
    if (f.from_s > d.x_max || (f.until_s && f.from_s == d.x_max)) continue;
    if (!f.until_s) {
      d.markers.push_back({f.from_s, f.type, name + " at " + SecondsText(f.from_s), kFault});
    } else if (CoversRun(f.from_s, *f.until_s, d.x_max)) {
      d.notes.push_back(name);
    } else {
      d.bands.push_back({f.from_s, std::min(*f.until_s, d.x_max),
                         name + ", " + SecondsText(f.from_s) + " to " + SecondsText(*f.until_s),
                         "fault window", kFault, "band fault"});
    }
  }
}

// Without the scenario: the runs of samples with a fault window open.
void FaultsFromFlags(const std::vector<Sample>& samples, Decorations& d) {
  for (size_t i = 0; i < samples.size();) {
    if (!samples[i].fault_active) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j + 1 < samples.size() && samples[j + 1].fault_active) ++j;
    const double from = samples[i].t_s;
    const double until = samples[j].t_s;
    if (CoversRun(from, until, d.x_max)) {
      d.notes.push_back("a fault window (open at every sample)");
    } else {
      d.bands.push_back({from, until,
                         "fault window open at the samples from " + SecondsText(from) + " to " +
                             SecondsText(until),
                         "fault window", kFault, "band fault"});
    }
    i = j + 1;
  }
}

// Worker crashes drawn at random inside a window: one unlabelled marker each (the window's band
// names the fault; a label per strike would pile up).
void CrashStrikes(const model::Results& r, Decorations& d) {
  for (const double t_s : r.crash_strikes_s) {
    if (t_s > d.x_max) continue;
    d.markers.push_back({t_s, "", "worker crash at " + SecondsText(t_s), kFault});
  }
}

void Drains(const model::Results& r, Decorations& d) {
  for (size_t i = 0; i < r.drains.size(); ++i) {
    const model::DrainResults& drain = r.drains[i];
    if (!drain.started_at_s) continue;
    if (*drain.started_at_s > d.x_max) continue;
    const double until = std::min(drain.ended_at_s.value_or(d.x_max), d.x_max);
    d.bands.push_back({*drain.started_at_s, std::max(*drain.started_at_s, until),
                       "drain " + std::to_string(i) + ": " + std::to_string(drain.replayed) +
                           " replayed at " + Decimal(drain.achieved_rate_per_s, 1) + "/s, from " +
                           SecondsText(*drain.started_at_s) +
                           (drain.ended_at_s ? " to " + SecondsText(*drain.ended_at_s)
                                             : std::string(", still active at the end")),
                       "drain", kDrain, "band drain"});
  }
}

svg::LineChart HtmlChart(const Decorations& d, std::string name, std::string title,
                         svg::Axis y_axis, size_t max_points) {
  svg::LineChart chart;
  chart.name = std::move(name);
  chart.title = std::move(title);
  chart.x_axis = svg::TimeAxis(d.x_max);
  chart.y_axis = std::move(y_axis);
  chart.x_min = 0;
  chart.x_max = d.x_max;
  chart.bands = d.bands;
  chart.markers = d.markers;
  chart.max_points = max_points;
  return chart;
}

}  // namespace

double ChartValue(const SeriesColumn& column, const SeriesSource& source, const Sample& s,
                  bool as_reported) {
  if (column.over_interval && s.t_s <= 0) return kNaN;  // closes no interval
  const double value = as_reported ? Fixed(column.value(s)) : column.value(s);
  if (source.zero_is_gap && value == 0) return kNaN;
  return value * source.factor;
}

namespace {

// The fault windows, drains and crash strikes every chart shows, and the notes for what a band
// cannot show.
Decorations DecorationsOf(const ReportInput& input) {
  const model::Results& r = input.results;
  Decorations d;
  d.x_max = std::max(r.ended_at_s, r.series.back().t_s);
  if (!(d.x_max > 0)) d.x_max = 1;
  const ScenarioMarks& marks = input.context.marks;
  if (marks.from_scenario) {
    FaultsFromScenario(marks, d);
  } else {
    FaultsFromFlags(r.series, d);
  }
  Drains(r, d);
  CrashStrikes(r, d);
  if (r.crash_strikes > static_cast<int64_t>(r.crash_strikes_s.size())) {
    d.notes.push_back("worker crashes: " + std::to_string(r.crash_strikes) + " in all, the first " +
                      std::to_string(r.crash_strikes_s.size()) + " marked");
  }
  return d;
}

// The charts every run has: queue depth, the oldest message's age, attempts, busy workers.
void AddQueueCharts(FigureBuilder& b, const Decorations& d, const model::Results& r,
                    const ScenarioMarks& marks, size_t max_points) {
  {
    svg::LineChart c = HtmlChart(d, "depth", "Queue depth", {"messages", ""}, max_points);
    c.y_integer = true;
    b.Column(c, "depth", "ready", kBlue);
    b.Column(c, "delayed_depth", "delayed", kAmber);
    b.Column(c, "dlq_depth", "DLQ", kMagenta);
    b.Column(c, "parked", "parked", kTeal);
    b.Add(std::move(c),
          "Messages at each sample: ready in the main queue, delayed for a retry, "
          "in the dead letter queue, parked for a human.");
  }
  {
    svg::LineChart c = HtmlChart(d, "oldest-age", "Age of the oldest message",
                                 {"oldest message age", "s"}, max_points);
    b.Column(c, "oldest_age_s", "oldest age", kBlue);
    std::string caption =
        "Age of the oldest message in the pipeline (ready, delayed or in flight), at each "
        "sample; maximum " +
        SecondsText(r.oldest_age_max_s) + ".";
    if (marks.age_alert_s) {
      c.threshold = svg::Threshold{*marks.age_alert_s,
                                   "age alert " + Decimal(*marks.age_alert_s) + " s", kAlert};
      caption += " The dashed line is the age alert (alerts.oldest_age_s): " +
                 (r.age_alert_first_s ? "it first fired at " + SecondsText(*r.age_alert_first_s)
                                      : std::string("it never fired")) +
                 ".";
    }
    b.Add(std::move(c), caption);
  }
  {
    svg::LineChart c = HtmlChart(d, "attempts", "Attempts: first executions and retries",
                                 {"attempts", "per s"}, max_points);
    c.clip_spikes = true;
    b.Column(c, "first_attempts_per_s", "first attempts", kBlue);
    b.Column(c, "retry_attempts_per_s", "retries", kMagenta);
    std::string caption =
        "Attempts started per second over each sampling interval: a message's first execution, "
        "and every other (retries, redeliveries, replays); " +
        std::to_string(r.first_attempts) + " first, " +
        std::to_string(r.attempts - r.first_attempts) + " others";
    if (r.retry_amplification) {
      caption += ": " + Decimal(*r.retry_amplification, 2) + " attempts per first attempt";
    }
    b.Add(std::move(c), caption + ".");
  }
  {
    const bool db = r.has_database;
    svg::LineChart c =
        HtmlChart(d, "busy", db ? "Busy workers and the database queue" : "Busy workers",
                  {"slots / queries", ""}, max_points);
    c.y_integer = true;
    b.Column(c, "workers_busy", "worker slots busy", kTeal);
    if (db) b.Column(c, "db_queue", "queries waiting", kAmber);
    b.Add(
        std::move(c),
        std::string("Worker slots running an attempt") +
            (db ? " and queries waiting for a database connection" : "") + ", at each sample" +
            (db ? "; the database queue peaked at " + std::to_string(r.db_queue_max) + "." : "."));
  }
}

// The charts of the parts a scenario may have: the downstream API, the database, live traffic.
void AddPartCharts(FigureBuilder& b, const Decorations& d, const model::Results& r,
                   size_t max_points) {
  if (r.downstream_calls > 0) {
    svg::LineChart c =
        HtmlChart(d, "downstream", "Downstream calls and 429s", {"calls", "per s"}, max_points);
    c.clip_spikes = true;
    b.Column(c, "downstream_calls_per_s", "calls", kBlue);
    b.Column(c, "downstream_429s_per_s", "429s", kMagenta);
    b.Add(std::move(c),
          "Calls to the downstream API per second over each sampling interval, "
          "and those its rate limit answered 429; " +
              std::to_string(r.downstream_calls) + " calls, " + std::to_string(r.downstream_429s) +
              " 429s in all.");
  }
  if (r.has_database) {
    svg::LineChart c = HtmlChart(d, "db-utilisation", "Database utilisation",
                                 {"database utilisation", "%"}, max_points);
    c.y_max = 100;
    b.Column(c, "db_utilisation", "utilisation", kBlue, 100.0);
    b.Add(std::move(c),
          "Share of the database's connections busy over each sampling "
          "interval; whole run " +
              Decimal(100 * r.db_utilisation, 1) + " %.");
  }
  if (r.has_live_traffic) {
    svg::LineChart c = HtmlChart(d, "live-latency", "Live-traffic latency",
                                 {"live query latency", "ms"}, max_points);
    b.Column(c, "live_p50_ms", "p50", kBlue, 1, true);
    b.Column(c, "live_p99_ms", "p99", kMagenta, 1, true);
    b.Add(std::move(c),
          "Latency of the live (non-queue) queries completed in each sampling "
          "interval: what users pay for a drain. Gaps: no query completed.");
    svg::LineChart e =
        HtmlChart(d, "live-errors", "Live-traffic errors", {"live errors", "per s"}, max_points);
    e.clip_spikes = true;
    b.Column(e, "live_errors_per_s", "errors", kMagenta);
    b.Add(std::move(e),
          "Live queries that timed out or were refused, per second over each "
          "sampling interval; " +
              std::to_string(r.live_errors) + " in all.");
  }
}

// broker.partitions: the largest lag of any partition, and the first three partitions' own.
void AddPartitionChart(FigureBuilder& b, const Decorations& d, const model::Results& r,
                       size_t max_points) {
  if (r.partitions == 0) return;
  svg::LineChart c = HtmlChart(d, "partition-lag", "Partition lag", {"lag", "records"}, max_points);
  c.y_integer = true;
  b.Column(c, "partition_lag_max", "largest", kMagenta);
  const char* colours[] = {kBlue, kAmber, kTeal};
  const int64_t shown = std::min<int64_t>(r.partitions, 3);
  for (int64_t p = 0; p < shown; ++p) {
    b.Column(c, "partition_lag_" + std::to_string(p), "partition " + std::to_string(p), colours[p]);
  }
  b.Add(std::move(c),
        "Records of a partition not yet at rest (ready, in flight or uncommitted, delayed), at "
        "each sample: the largest of the " +
            std::to_string(r.partitions) +
            " partitions', and partition by partition for the first " + std::to_string(shown) +
            " (series.csv has up to 32). A partition held by a failing record climbs while the "
            "others stay flat.");
}

// The DLQ's flows and the drains' rate.
void AddFlowCharts(FigureBuilder& b, const Decorations& d, const model::Results& r,
                   size_t max_points) {
  {
    svg::LineChart c =
        HtmlChart(d, "dlq-flow", "DLQ inflow and outflow", {"DLQ flow", "messages/s"}, max_points);
    c.clip_spikes = true;
    b.Column(c, "dlq_inflow_per_s", "inflow", kMagenta);
    b.Column(c, "dlq_outflow_per_s", "outflow", kTeal);
    b.Add(std::move(c),
          "Messages dead-lettered (inflow) and taken out of the DLQ (outflow) per "
          "second over each sampling interval; " +
              std::to_string(r.dlq_inflow) + " in, " + std::to_string(r.dlq_outflow) +
              " out in all.");
  }
  if (!r.drains.empty()) {
    svg::LineChart c =
        HtmlChart(d, "drain-rate", "Drain rate", {"drain rate", "messages/s"}, max_points);
    c.clip_spikes = true;
    b.Column(c, "drain_rate_per_s", "replays", kTeal);
    b.Add(std::move(c),
          "Messages replayed from the DLQ per second over each sampling "
          "interval; " +
              std::to_string(r.replays) + " replays in all.");
  }
}

}  // namespace

RunCharts ChartsOf(const ReportInput& input, size_t max_points) {
  DRAINSIM_CHECK(max_points >= 2);
  const model::Results& r = input.results;
  RunCharts out;
  if (r.series.empty()) return out;
  const Decorations d = DecorationsOf(input);
  out.notes = d.notes;
  FigureBuilder b(r.series, max_points, out);
  AddQueueCharts(b, d, r, input.context.marks, max_points);
  AddPartCharts(b, d, r, max_points);
  AddPartitionChart(b, d, r, max_points);
  AddFlowCharts(b, d, r, max_points);
  return out;
}

}  // namespace drainsim::reports
