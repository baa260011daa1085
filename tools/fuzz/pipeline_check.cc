#include "tools/fuzz/pipeline_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>
#include <vector>

#include "reports/expectations.h"
#include "reports/formats.h"
#include "reports/json_report.h"
#include "reports/scenario_marks.h"
#include "sim/model/simulation.h"
#include "sim/model/trace_log.h"
#include "sim/scenario/load.h"
#include "tests/reports/mini_xml.h"
#include "tools/fuzz/fuzz_check.h"

namespace drainsim::fuzz {

namespace {

constexpr const char* kScenarioPath = "gen.json";

struct Rendered {
  model::Results results;
  // Every file of every format of reports::Formats(), and the format that wrote it.
  std::vector<reports::OutputFile> files;
  std::vector<std::string_view> format_of;
};

// One run with a trace recorder, every format rendered.
Rendered RunAndRender(const config::Scenario& s, bool audit) {
  model::TraceRecorder recorder(s, model::TraceOptions{});
  model::RunOptions options;
  options.audit_every_event = audit;
  options.observer = &recorder;
  Rendered out{model::RunSimulation(s, s.seed, options), {}, {}};
  const model::Results& r = out.results;
  const model::TraceLog log =
      recorder.Finish(engine::Instant::Micros(std::llround(r.ended_at_s * 1e6)));
  const std::vector<reports::Verdict> verdicts = reports::EvaluateExpectations(r, s.expect);
  reports::ReportContext context;
  context.scenario_path = kScenarioPath;
  context.scenario_hash = reports::HashHex(scenario::DumpCanonical(s));
  context.drainsim_version = "fuzz";
  context.marks = reports::ScenarioMarksOf(s);
  const reports::ReportInput input{r, context, verdicts,
                                   reports::ReproduceCommand(kScenarioPath, s.seed), &log};
  for (const reports::Format& format : reports::Formats()) {
    for (reports::OutputFile& file : reports::RenderFormat(format, input)) {
      out.files.push_back(std::move(file));
      out.format_of.push_back(format.name);
    }
  }
  return out;
}

std::string Fmt(const char* format, int64_t a, int64_t b) {
  char text[200];
  std::snprintf(text, sizeof text, format, static_cast<long long>(a), static_cast<long long>(b));
  return text;
}

std::string CheckConservation(const model::Results& r) {
  if (r.lost != 0) return "conservation: " + std::to_string(r.lost) + " lost (must be 0)";
  const int64_t resting =
      r.acked + r.parked + r.expired + r.dlq_end + r.rejected + r.broker_lost + r.not_terminal_end;
  if (resting != r.published) {
    return Fmt(
        "conservation: %lld published, but %lld acked + parked + expired + dlq_end + "
        "rejected + broker_lost + not_terminal_end",
        r.published, resting);
  }
  int64_t by_cause = 0;
  for (int64_t n : r.broker_lost_by_cause) by_cause += n;
  if (by_cause != r.broker_lost) {
    return Fmt("conservation: broker_lost %lld, but its causes add up to %lld", r.broker_lost,
               by_cause);
  }
  int64_t kinds_published = 0;
  int64_t kinds_acked = 0;
  for (const auto& [name, kind] : r.kinds) {
    kinds_published += kind.published;
    kinds_acked += kind.acked;
  }
  if (kinds_published != r.published) {
    return Fmt("conservation: the kinds published %lld, the run %lld", kinds_published,
               r.published);
  }
  if (kinds_acked != r.acked) {
    return Fmt("conservation: the kinds acked %lld, the run %lld", kinds_acked, r.acked);
  }
  return "";
}

bool JsonParses(const std::string& text) {
  return !nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false).is_discarded();
}

// Every row of the CSV has the header's column count (drainsim's CSV quotes nothing).
std::string CheckCsv(const std::string& text) {
  if (text.empty() || text.back() != '\n') return "csv: does not end with a newline";
  int64_t columns = -1;
  int64_t row = 0;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    const int64_t count = 1 + static_cast<int64_t>(std::count(line.begin(), line.end(), ','));
    if (line.find('"') != std::string::npos)
      return "csv: a quoted field in row " + std::to_string(row);
    if (columns < 0) columns = count;
    if (count != columns) return Fmt("csv: row %lld has %lld columns", row, count);
    start = end + 1;
    ++row;
  }
  return "";
}

std::string CheckParses(std::string_view name, const std::string& text) {
  if (name == "json" || name == "trace" || name == "otlp") {
    return JsonParses(text) ? "" : std::string(name) + ": not valid JSON";
  }
  if (name == "junit") {
    const testing::xml::Document doc = testing::xml::Parse(text);
    return doc.error.empty() ? "" : "junit: not well-formed XML: " + doc.error;
  }
  if (name == "html") {
    const std::string doctype = "<!DOCTYPE html>\n";
    if (text.compare(0, doctype.size(), doctype) != 0) return "html: no doctype";
    const testing::xml::Document doc = testing::xml::Parse(text.substr(doctype.size()));
    return doc.error.empty() ? "" : "html: not well-formed XML: " + doc.error;
  }
  if (name == "csv") return CheckCsv(text);
  return text.empty() ? std::string(name) + ": empty" : "";
}

}  // namespace

PipelineOutcome CheckPipeline(std::string_view scenario_json) {
  PipelineOutcome outcome;
  const scenario::LoadResult loaded = scenario::LoadScenarioText(scenario_json);
  if (!loaded.ok()) {
    outcome.refused = true;
    outcome.failure = "the loader refused the generated scenario: " +
                      scenario::FormatProblem(kScenarioPath, loaded.problems.front());
    return outcome;
  }
  if (std::string failure = CheckScenarioBytes(scenario_json); !failure.empty()) {
    outcome.failure = "dump round trip: " + failure;
    return outcome;
  }
  const config::Scenario& s = *loaded.scenario;
  const Rendered first = RunAndRender(s, /*audit=*/true);
  const model::Results& r = first.results;
  outcome.events = r.events;
  outcome.events_max_reached = r.events_max_reached;
  outcome.quiescent = !r.reached_until && !r.events_max_reached;
  if (std::string failure = CheckConservation(r); !failure.empty()) {
    outcome.failure = failure;
    return outcome;
  }
  // Dead letters waiting for DLQ room (at-least-once) rest: only room in the DLQ moves them.
  const int64_t moving = r.not_terminal_end - r.dead_letter_waiting_end;
  if (outcome.quiescent && moving != 0) {
    outcome.failure =
        Fmt("quiescence: the run ended at nothing left to happen with %lld "
            "messages unfinished (events %lld)",
            moving, r.events);
    return outcome;
  }
  for (size_t i = 0; i < first.files.size(); ++i) {
    if (std::string failure = CheckParses(first.format_of[i], first.files[i].text);
        !failure.empty()) {
      outcome.failure = failure;
      return outcome;
    }
  }
  const Rendered second = RunAndRender(s, /*audit=*/false);
  if (second.results.fingerprint != r.fingerprint) {
    outcome.failure = "determinism: the second run has another fingerprint";
    return outcome;
  }
  for (size_t i = 0; i < first.files.size(); ++i) {
    if (first.files[i].text != second.files[i].text) {
      outcome.failure = "determinism: " + first.files[i].name + " differs between runs";
      return outcome;
    }
  }
  return outcome;
}

std::string ReproduceSeedCommand(uint64_t seed) {
  return "build/tools/fuzz/fuzz_gen --seed " + std::to_string(seed) +
         " > gen.json && build/tools/drainsim/drainsim run gen.json --audit "
         "--format json,md,junit,csv,html,trace,otlp --out out/gen";
}

}  // namespace drainsim::fuzz
