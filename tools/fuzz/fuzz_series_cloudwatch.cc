// libFuzzer target for `drainsim backtest`'s cloudwatch reader (built by tools/fuzz with clang):
// bytes read as a recorded metric series (series_check.h).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/fuzz/series_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string failure =
      drainsim::fuzz::CheckSeriesCloudWatchBytes({reinterpret_cast<const char*>(data), size});
  if (!failure.empty()) {
    std::fprintf(stderr, "drainsim fuzz_series_cloudwatch: property violated: %s\n",
                 failure.c_str());
    std::abort();
  }
  return 0;
}
