// report.json: the versioned, machine-readable report of one run.
//
// Contract:
//  (1) Keys are sorted and numbers are rounded to fixed precision (6 decimals for seconds and
//      ratios), so the same Results give byte-identical text.
//  (2) `report_version` changes whenever a field changes meaning or disappears; new fields may
//      appear without a version change.
//  (3) The report reads Results only; it never reaches into the simulation.
//  (4) Figures are defined in reports/metrics.h, shared with the other formats.
#pragma once

#include <cstdint>
#include <string>

#include "reports/report_input.h"
#include "sim/model/results.h"

namespace drainsim::reports {

inline constexpr int kReportVersion = 1;

// The report as JSON text (2-space indent, trailing newline). `expectations` holds one object
// per verdict: expectation (its text), type, metric, kind, during, bounds, measured (null when
// undefined or not measured), measured_text, passed, reason.
std::string JsonReport(const ReportInput& input);

// FNV-1a 64 of `text` as 16 hex digits: the scenario hash in reports.
std::string HashHex(const std::string& text);

}  // namespace drainsim::reports
