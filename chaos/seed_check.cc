#include "chaos/seed_check.h"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "chaos/variant.h"
#include "sim/model/simulation.h"

namespace drainsim::chaos {

namespace {

[[gnu::format(printf, 1, 2)]] std::string Printf(const char* format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  return text;
}

// The headline figures two runs of one variant must agree on; the fingerprint covers the event
// sequence, these what was made of it.
std::string Headline(const model::Results& r) {
  return Printf("fingerprint %016" PRIx64 ", %" PRId64 " events, ended at %.6f s; %" PRId64
                " published, %" PRId64 " acked, %" PRId64 " parked, %" PRId64 " in DLQ, %" PRId64
                " expired, %" PRId64 " not terminal, %" PRId64 " lost; %" PRId64
                " attempts, %" PRId64 " duplicate executions",
                r.fingerprint, r.events, r.ended_at_s, r.published, r.acked, r.parked, r.dlq_end,
                r.expired, r.not_terminal_end, r.lost, r.attempts, r.duplicate_executions);
}

// Each fault as one line of compact JSON, exactly as the variant's dump writes it.
void NoteFaults(const config::Scenario& variant, SeedReport& report) {
  const nlohmann::json dump = nlohmann::json::parse(scenario::DumpCanonical(variant));
  const nlohmann::json& faults = dump.at("faults");
  if (faults.empty()) report.Note("faults: none");
  for (const nlohmann::json& fault : faults) report.Note("fault: " + fault.dump());
}

void CheckConservation(const model::Results& r, SeedReport& report) {
  if (r.lost != 0) {
    report.Fail(Verdict::kCorrectness,
                Printf("conservation: %" PRId64 " messages lost (must be 0)", r.lost));
  }
  // A publish refused by a full queue (overflow reject_publish) is published and rests as
  // rejected; one the broker discarded by design as broker_lost.
  const int64_t resting =
      r.acked + r.parked + r.expired + r.dlq_end + r.rejected + r.broker_lost + r.not_terminal_end;
  if (resting != r.published) {
    report.Fail(Verdict::kCorrectness,
                Printf("conservation: %" PRId64 " published but acked %" PRId64 " + parked %" PRId64
                       " + expired %" PRId64 " + DLQ %" PRId64 " + rejected %" PRId64
                       " + broker lost %" PRId64 " + not terminal %" PRId64 " = %" PRId64,
                       r.published, r.acked, r.parked, r.expired, r.dlq_end, r.rejected,
                       r.broker_lost, r.not_terminal_end, resting));
  }
  int64_t by_cause = 0;
  for (int64_t n : r.broker_lost_by_cause) by_cause += n;
  if (by_cause != r.broker_lost) {
    report.Fail(Verdict::kCorrectness,
                Printf("conservation: broker_lost %" PRId64 " but its causes add up to %" PRId64,
                       r.broker_lost, by_cause));
  }
}

void CheckLiveness(const SwarmPlan& plan, const model::Results& r, engine::Duration liveness,
                   SeedReport& report) {
  const double safety_end_s = plan.safety_end.seconds();
  if (r.events_max_reached) {
    report.Fail(Verdict::kLiveness,
                Printf("liveness: stopped by run.events_max after %" PRId64
                       " events at %.6f s, before the end of the liveness phase",
                       r.events, r.ended_at_s));
  }
  // Dead letters waiting for DLQ room (at-least-once) are at rest: only room moves them.
  const int64_t moving = r.not_terminal_end - r.dead_letter_waiting_end;
  if (moving != 0) {
    report.Fail(Verdict::kLiveness,
                Printf("liveness: %" PRId64
                       " messages still ready, delayed or in flight at %.6f s (faults stopped at "
                       "%.6f s; liveness bound %s s)",
                       moving, r.ended_at_s, safety_end_s, FormatSeconds(liveness).c_str()));
  }
}

}  // namespace

void JudgeEnd(const SwarmPlan& plan, const model::Results& results, engine::Duration liveness,
              SeedReport& report) {
  if (results.model_error) {
    // A stall of the model is its bug, not a slow recovery: a correctness failure.
    report.Fail(Verdict::kCorrectness, "model error: invariant " + results.model_error->invariant +
                                           " broken: " + results.model_error->detail);
    return;
  }
  CheckLiveness(plan, results, liveness, report);
}

SeedReport CheckSeed(const SwarmPlan& plan, uint64_t seed) {
  SeedReport report;
  report.seed = seed;
  const Variant drawn = DrawVariant(plan, seed);
  // The drawn policy is not noted here: the swarm prints it from DrawVariant in the parent,
  // for a seed whose child died too.
  for (const std::string& problem : drawn.problems) {
    report.Fail(Verdict::kCorrectness, "invalid variant: drawn policy refused: " + problem);
  }
  if (!drawn.scenario) return report;
  const config::Scenario& generated = *drawn.scenario;
  NoteFaults(generated, report);
  const scenario::LoadResult loaded = ReloadVariant(generated);
  if (!loaded.ok()) {
    for (const scenario::Problem& problem : loaded.problems) {
      report.Fail(Verdict::kCorrectness,
                  "invalid variant: " + scenario::FormatProblem("<variant>", problem));
    }
    return report;
  }
  const config::Scenario& variant = *loaded.scenario;

  model::RunOptions audited;
  audited.audit_every_event = true;
  try {
    const model::Results first = model::RunSimulation(variant, seed, audited);
    report.Note("run: " + Headline(first));
    CheckConservation(first, report);

    const model::Results second = model::RunSimulation(variant, seed);
    if (Headline(second) != Headline(first)) {
      report.Fail(Verdict::kCorrectness,
                  "determinism: the second run differs: " + Headline(second));
    }
    JudgeEnd(plan, first, drawn.liveness, report);
  } catch (const model::PendingMessagesMaxExceeded& e) {
    // Messages piled up without bound: the system never recovered, whatever the faults.
    report.Fail(Verdict::kLiveness, std::string("liveness: ") + e.what());
  }
  return report;
}

}  // namespace drainsim::chaos
