// Decimal(value, decimals): a number as people read it in a report or a legend: fixed-point with
// at most `decimals` digits after the point, trailing zeros and a bare point dropped, "-0" as
// "0", non-finite values as "nan", "inf", "-inf". In the base layer because the configuration
// (a fault's legend text, sim/config/fault_types.h) and the reports write numbers the same way.
//
// Thread-safety: a pure function.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

#include "sim/base/check.h"

namespace drainsim::base {

// REQUIRES: 0 <= decimals <= 9.
inline std::string Decimal(double value, int decimals = 6) {
  DRAINSIM_CHECK(decimals >= 0);
  DRAINSIM_CHECK(decimals <= 9);
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
  char buffer[400];
  std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
  std::string text = buffer;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  if (text == "-0") text = "0";
  return text;
}

}  // namespace drainsim::base
