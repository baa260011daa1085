// The grid of a sweep: `--vary PATH=LIST` or `--vary PATH=START:STOP:STEP`, one axis per --vary,
// and every point's scenario, edited and validated by the real loader before anything runs.
//
// Contract:
//  (1) A LIST is comma-separated; each item is read as JSON when it is JSON (5, 0.5, true,
//      "text") and as a string otherwise (full, drip). A range START:STOP:STEP (STEP > 0,
//      START <= STOP) is START + k * STEP for k = 0, 1, ... while <= STOP (with a tolerance of
//      1e-9 steps, so 0.1:0.3:0.1 has three values), each rounded to 6 decimals; integers when
//      START and STEP are written as integers.
//  (2) BuildPoints gives the scenario of every point, or every problem: a pointer that names no
//      place in the scenario, or a value the loader refuses, each as "--vary EDIT: problem" with
//      the loader's pointer and message. No point runs unless every point is valid.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "sim/base/expected.h"
#include "sim/config/config.h"

namespace drainsim::experiments {

inline constexpr int64_t kAxisValuesMax = 10'000;
inline constexpr int64_t kGridPointsMax = 100'000;

// "/drains/0/rate_per_s=5:200:5" -> the axis, or why not.
base::Expected<Axis> ParseVary(const std::string& text);

// The scenario of every point of `axes` over `base`, in grid order (experiment.h), or nullopt
// and one message per problem in *errors (at most `errors_max` of them, then a count).
std::optional<std::vector<config::Scenario>> BuildPoints(const nlohmann::json& base,
                                                         const std::vector<Axis>& axes,
                                                         std::vector<std::string>* errors,
                                                         size_t errors_max = 20);

}  // namespace drainsim::experiments
