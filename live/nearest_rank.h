// The nearest-rank quantile the live figures use (drainer busy times, enqueue latency): the
// value at rank ceil(p * n), 1-based, of a sorted sample; a measured value, never interpolated.
//
// REQUIRES: `sorted` is sorted ascending and not empty; 0 <= p <= 1.
// Thread-safety: pure.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace drainsim::live {

inline double NearestRank(const std::vector<double>& sorted, double p) {
  size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  rank = std::clamp<size_t>(rank, 1, sorted.size());
  return sorted[rank - 1];
}

}  // namespace drainsim::live
