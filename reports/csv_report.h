// series.csv: the sampled time series as RFC 4180 CSV, for spreadsheets and plotting tools.
//
// Contract:
//  (1) A header row of column names carrying their units (reports/metrics.h, SeriesColumns():
//      the same names as report.json's `series`), then one row per sample, oldest first.
//      Every row has as many fields as the header.
//  (2) Lines end with CRLF (RFC 4180). Counts are integers, other figures are written as
//      report.json writes them (JsonNumber), flags (drain_active, fault_active) as 1 or 0.
//      Fields holding a comma, quote or line break would be quoted; none do today.
//  (3) Without a database or live traffic, their columns are still present and hold 0, so the
//      columns are the same for every scenario.
#pragma once

#include <string>

#include "reports/report_input.h"

namespace drainsim::reports {

std::string CsvSeries(const ReportInput& input);

// `field` as an RFC 4180 field: as it is, or in double quotes with quotes doubled when it holds
// a comma, a double quote, CR or LF.
std::string CsvField(const std::string& field);

}  // namespace drainsim::reports
