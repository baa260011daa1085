// The whole-pipeline property, for a scenario the generator (scenario_gen.h) made: load, dump
// round trip, run with the audit on, every report format, a second run, and what must hold of
// all of it. Shared by the libFuzzer target (fuzz_pipeline.cc) and the seeded CI test
// (tests/fuzz/pipeline_test.cc).
//
// Checked, in order (the first failure is returned):
//  (1) the loader accepts the text (else `refused`: a generator bug), and load -> dump -> load
//      gives the same scenario with the dump a fixed point (fuzz_check.h);
//  (2) a run with RunOptions::audit_every_event and a trace recorder: any broken invariant in
//      the model is a DRAINSIM_CHECK, which aborts (the crash libFuzzer reports);
//  (3) conservation: lost == 0, published == acked + parked + expired + dlq_end + rejected +
//      broker_lost + not_terminal_end, broker_lost's causes add up to it, the kinds' published
//      and acked add up to the run's;
//  (4) quiescence implies at rest: a run that ended because nothing was left to happen
//      (not reached_until, not events_max_reached) has nothing ready, delayed or in flight
//      (not_terminal_end == dead_letter_waiting_end);
//  (5) every format of reports/formats.h renders, and parses: json and trace as JSON, junit and
//      html (its SVG charts included) as well-formed XML, csv with one column count;
//  (6) determinism: a second run, without the audit, gives the same bytes in every format.
//
// Thread-safety: reentrant.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace drainsim::fuzz {

struct PipelineOutcome {
  std::string failure;     // "" iff every property held
  bool refused = false;    // the loader refused the text: a generator bug
  bool quiescent = false;  // ended because nothing was left to happen
  bool events_max_reached = false;
  int64_t events = 0;
};

// Checks (1)-(6) on `scenario_json`.
PipelineOutcome CheckPipeline(std::string_view scenario_json);

// The command that reproduces a generated case: write it with fuzz_gen, run it with drainsim.
std::string ReproduceSeedCommand(uint64_t seed);

}  // namespace drainsim::fuzz
