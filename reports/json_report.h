// report.json: the versioned, machine-readable report of one run.
//
// Contract:
//  (1) Keys are sorted and numbers are rounded to fixed precision (6 decimals for seconds and
//      ratios), so the same Results give byte-identical text.
//  (2) `report_version` changes whenever a field changes meaning or disappears; new fields may
//      appear without a version change.
//  (3) The report reads Results only; it never reaches into the simulation.
#pragma once

#include <cstdint>
#include <string>

#include "sim/model/results.h"

namespace drainsim::reports {

inline constexpr int kReportVersion = 1;

struct ReportContext {
  std::string scenario_path;
  std::string scenario_hash;     // hex digest of the scenario's canonical form
  std::string drainsim_version;  // "0.1.0 (commit abc)"
};

// The report as JSON text (2-space indent, trailing newline).
std::string JsonReport(const model::Results& results, const ReportContext& context);

// FNV-1a 64 of `text` as 16 hex digits: the scenario hash in reports.
std::string HashHex(const std::string& text);

}  // namespace drainsim::reports
