// Reading and writing scenarios: JSON text in, a validated Scenario out, every problem named.
//
// Contract:
//  (1) A load either yields a Scenario that passed every check, or no Scenario and at least one
//      Problem; never both, never neither.
//  (2) Every problem is reported, not just the first: one Problem per bad field.
//  (3) Any bytes at all are safe input: no crash, no unbounded recursion, no unbounded
//      allocation (the loader is fuzzed).
//  (4) DumpCanonical(s) loads back to a Scenario equal to s, and dumping that gives the same
//      text (load -> dump -> load round-trips).
//  (5) Warnings (plausibility.h) come only with a Scenario; they never stop a load.
//
// Thread-safety: the functions are reentrant; they share no state.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/config/config.h"

namespace drainsim::scenario {

// The only format version this build reads and writes (JSON `format_version`, required).
inline constexpr int64_t kFormatVersion = 1;

// One thing wrong with an input. `pointer` is a JSON pointer ("/drains/0/rate_per_s"), or ""
// for the document as a whole; for syntax errors `pointer` is "" and `message` carries the
// line and column ("syntax error at line 3, column 14: ...").
struct Problem {
  std::string pointer;
  std::string message;  // e.g. "must be > 0 (got -5)"
};

struct LoadResult {
  std::optional<config::Scenario> scenario;
  std::vector<Problem> problems;
  // Values that are legal but almost certainly a mistake (plausibility.h); empty unless ok().
  std::vector<Problem> warnings;
  bool ok() const { return scenario.has_value(); }
};

// Parses and validates scenario text.
LoadResult LoadScenarioText(std::string_view text);

// Reads a file and loads it. A missing file, a directory, or an unreadable file is a Problem
// with pointer "" (never an exception).
LoadResult LoadScenarioFile(const std::string& path);

// "FILE: /pointer: message" (or "FILE: message" when the pointer is empty): the one format in
// which drainsim reports bad input.
std::string FormatProblem(std::string_view file, const Problem& problem);
// "FILE: /pointer: warning: message".
std::string FormatWarning(std::string_view file, const Problem& warning);

// The canonical form: sorted keys, every default filled in, units as in the input vocabulary.
std::string DumpCanonical(const config::Scenario& scenario);

}  // namespace drainsim::scenario
