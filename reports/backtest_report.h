// `drainsim backtest`'s outputs from its result (experiments/results/backtest_result.h):
// backtest.json (every band point), backtest.md (the verdict per figure), backtest.html (the
// observed series drawn over the simulated band), and the summary printed on stdout.
//
// Contract: pure functions; the same result gives the same bytes (sorted keys, numbers rounded
// to 6 decimals as report.json writes them, "never" (+infinity) as null in JSON).
#pragma once

#include <string>

#include "experiments/results/backtest_result.h"

namespace drainsim::reports {

std::string BacktestJson(const experiments::BacktestResult& result);
std::string BacktestMarkdown(const experiments::BacktestResult& result);
std::string BacktestHtml(const experiments::BacktestResult& result);
std::string BacktestSummary(const experiments::BacktestResult& result);

}  // namespace drainsim::reports
