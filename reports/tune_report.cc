#include "reports/tune_report.h"

#include <cmath>

#include "reports/metrics.h"
#include "reports/statistics_json.h"
#include "reports/table.h"
#include "reports/text_format.h"

namespace drainsim::reports {

namespace {

using experiments::Constraint;
using experiments::ConstraintResult;
using experiments::Evaluation;
using experiments::TuneContext;
using experiments::TuneResult;
using experiments::TuneSpec;
using experiments::ValueJson;
using nlohmann::json;

std::string OpText(Constraint::Op op) {
  switch (op) {
    case Constraint::Op::kAtMost:
      return "<=";
    case Constraint::Op::kAtLeast:
      return ">=";
    case Constraint::Op::kEquals:
      return "==";
  }
  return "?";
}

std::string RangeText(const TuneSpec& spec) {
  return "[" + Number(spec.low) + ", " + Number(spec.high) + "]";
}

// Each line its own Markdown paragraph.
std::string Paragraphs(const std::string& lines) {
  std::string out;
  for (char c : lines) out += c == '\n' ? std::string("\n\n") : std::string(1, c);
  return out;
}

// What was searched, how, and every constraint with the bound it is judged by.
std::string Head(const TuneSpec& spec, const TuneContext& context) {
  const std::string direction = spec.maximize ? "maximize" : "minimize";
  const std::string level = LevelPercent(spec.confidence);
  std::string head =
      "tune " + context.scenario_name + " (" + context.scenario_path + "): " + direction + " " +
      spec.pointer + " in " + RangeText(spec) + ", resolution " + Number(spec.resolution) + "\n" +
      std::to_string(spec.replications) + " replications per value (seeds ReplicationSeed(" +
      std::to_string(spec.base_seed) +
      ", i), the same at every value); every constraint must hold with " + level + " confidence:\n";
  for (const Constraint& c : spec.constraints) {
    const std::string how = c.op == Constraint::Op::kEquals
                                ? "in every replication"
                                : std::string("its one-sided ") + level + " " +
                                      (c.op == Constraint::Op::kAtMost ? "upper" : "lower") +
                                      " bound of the mean";
    head += "  " + ConstraintText(c) + "  (" + how + ")\n";
  }
  return head;
}

// "; the next value, V (+STEP), fails: WHY\n", or that the best is the range's end.
std::string NextValueText(const TuneSpec& spec, const TuneResult& result) {
  if (!result.first_failing) {
    return "; it is the end of the range: the constraints may hold beyond it\n";
  }
  const Evaluation& fail = result.evaluations[*result.first_failing_evaluation];
  std::string broken;
  for (const ConstraintResult& c : fail.constraints) {
    if (!c.held) broken += (broken.empty() ? "" : "; ") + c.why;
  }
  return "; the next value, " + Number(*result.first_failing) + " (" + (spec.maximize ? "+" : "-") +
         Number(std::abs(*result.first_failing - result.best)) + "), fails: " + broken + "\n";
}

// The recommendation and why, or that no value held. Its first line is the headline.
std::string VerdictText(const TuneSpec& spec, const TuneResult& result) {
  if (!result.found) {
    return "no value in " + RangeText(spec) + " satisfied every constraint (of the " +
           std::to_string(result.evaluations.size()) +
           " evaluated, evenly spaced over the range; a window narrower than their spacing "
           "could be missed)\n";
  }
  std::string verdict = "recommended: " + spec.pointer + " = " + Number(result.best) + "\n";
  const std::string extreme = spec.maximize ? "largest" : "smallest";
  verdict += "why: the " + extreme + " value evaluated in " + RangeText(spec) +
             " at which every constraint held (" + std::to_string(spec.replications) +
             " replications each)";
  verdict += NextValueText(spec, result);
  const Evaluation* at_best = nullptr;
  for (const Evaluation& e : result.evaluations) {
    if (e.value == result.best) at_best = &e;
  }
  if (at_best != nullptr) {
    std::string margins;
    for (const ConstraintResult& c : at_best->constraints) {
      margins += (margins.empty() ? "" : "; ") + c.why;
    }
    verdict += "at " + Number(result.best) + ": " + margins + "\n";
  }
  return verdict;
}

// One row per evaluation: the value, and per constraint its mean, bound (or range) and verdict.
Table Evidence(const TuneSpec& spec, const TuneResult& result) {
  const std::string level = LevelPercent(spec.confidence);
  Table table;
  table.header = {"#", "phase", spec.pointer};
  for (const Constraint& c : spec.constraints) {
    table.header.push_back(ConstraintText(c) + ": mean");
    table.header.push_back(c.op == Constraint::Op::kEquals ? "range" : level + " bound");
    table.header.push_back("holds");
  }
  table.header.push_back("all hold");
  table.right.assign(table.header.size(), true);
  table.right[1] = false;
  for (size_t i = 0; i < result.evaluations.size(); ++i) {
    const Evaluation& e = result.evaluations[i];
    std::vector<std::string> row = {std::to_string(i + 1), e.phase, Number(e.value)};
    for (size_t c = 0; c < e.constraints.size(); ++c) {
      const ConstraintResult& r = e.constraints[c];
      const bool any = r.stats.count > 0;
      row.push_back(any ? Number(r.stats.mean) : "undefined");
      if (spec.constraints[c].op == Constraint::Op::kEquals) {
        row.push_back(any ? "[" + Number(r.stats.min) + ", " + Number(r.stats.max) + "]" : "-");
      } else {
        row.push_back(any && r.stats.undefined == 0 ? Number(r.bound_at_confidence) : "-");
      }
      row.push_back(r.held ? "yes" : "no");
    }
    row.push_back(e.held ? "yes" : "no");
    table.rows.push_back(std::move(row));
  }
  return table;
}

json EvaluationsJson(const TuneSpec& spec, const TuneResult& result) {
  json evaluations = json::array();
  for (const Evaluation& e : result.evaluations) {
    json results = json::array();
    for (size_t c = 0; c < e.constraints.size(); ++c) {
      const ConstraintResult& r = e.constraints[c];
      json entry = StatisticsJson(r.stats);
      entry["constraint"] = ConstraintText(spec.constraints[c]);
      entry["bound_at_confidence"] = Fixed(r.bound_at_confidence);
      entry["held"] = r.held;
      entry["why"] = r.why;
      results.push_back(std::move(entry));
    }
    evaluations.push_back({{"phase", e.phase},
                           {"value", ValueJson(spec, e.value)},
                           {"held", e.held},
                           {"constraints", std::move(results)}});
  }
  return evaluations;
}

json TuneJson(const TuneSpec& spec, const TuneResult& result, const TuneContext& context) {
  json constraints = json::array();
  for (const Constraint& c : spec.constraints) {
    constraints.push_back({{"metric", c.metric}, {"op", OpText(c.op)}, {"bound", c.bound}});
  }
  return {{"experiments_version", 1},
          {"command", "tune"},
          {"scenario",
           {{"name", context.scenario_name},
            {"path", context.scenario_path},
            {"hash", context.scenario_hash}}},
          {"drainsim_version", context.drainsim_version},
          {"param", spec.pointer},
          {"range", {spec.low, spec.high}},
          {"resolution", spec.resolution},
          {"direction", spec.maximize ? "maximize" : "minimize"},
          {"replications", spec.replications},
          {"confidence", spec.confidence},
          {"base_seed", spec.base_seed},
          {"constraints", std::move(constraints)},
          {"found", result.found},
          {"recommended", result.found ? ValueJson(spec, result.best) : json(nullptr)},
          {"first_failing",
           result.first_failing ? ValueJson(spec, *result.first_failing) : json(nullptr)},
          {"evaluations", EvaluationsJson(spec, result)}};
}

}  // namespace

std::string ConstraintText(const Constraint& c) {
  return c.metric + " " + OpText(c.op) + " " + Number(c.bound);
}

Rendered RenderTune(const TuneSpec& spec, const TuneResult& result, const TuneContext& context) {
  const std::string head = Head(spec, context);
  const std::string verdict = VerdictText(spec, result);
  const std::string assumption =
      "assumes the constraints hold on one side of a single threshold (" +
      std::string(spec.maximize ? "below it" : "above it") +
      "); the evidence shows every value evaluated\n";
  const Table table = Evidence(spec, result);

  Rendered out;
  out.exit_code = result.found ? 0 : 1;
  out.text =
      head + "\n" + verdict + assumption + "\nevidence (in the order evaluated):\n" + table.Text();
  out.files.push_back({"tune.md", "# Tuning " + spec.pointer + " of " + context.scenario_name +
                                      "\n\n```\n" + head + "```\n\n**" +
                                      verdict.substr(0, verdict.find('\n')) + "**\n\n" +
                                      Paragraphs(verdict.substr(verdict.find('\n') + 1)) + "\n" +
                                      assumption + "\n## Evidence\n\n" + table.Markdown()});
  out.files.push_back({"tune.json", TuneJson(spec, result, context).dump(2) + "\n"});
  return out;
}

}  // namespace drainsim::reports
