// How `drainsim compare` writes the figures of an outcome a run may never reach
// (experiments/results/comparison_result.h, CensoredComparison; experiments/compare_censored.h
// computes them): the p-values, compare.json's "never" object and the cells of the "reached"
// table.
//
// Contract: pure and locale-independent.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/results/comparison_result.h"

namespace drainsim::reports {

// A p-value as people read it: 3 significant digits ("0.0039", "1", "2.1e-09").
std::string PValueText(double p);
// As compare.json writes it: 6 significant digits.
double PValueJson(double p);

nlohmann::json CensoredJson(const experiments::CensoredComparison& c);

// The header of the "reached" table after its metric column, and one row's cells in that order:
// reached A ("2 of 10"), its interval ("[5.7%, 51%]"), the same for B, pairs reached in A only,
// in B only, McNemar's p, the signed-rank p.
std::vector<std::string> CensoredHeader(double confidence);
std::vector<std::string> CensoredCells(const experiments::CensoredComparison& c);

}  // namespace drainsim::reports
