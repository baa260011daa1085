// libFuzzer target for `drainsim fit`'s telemetry path (built by tools/fuzz with clang): bytes
// read as an OTLP/JSON traces file, fitted and rendered (otlp_check.h).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/fuzz/otlp_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string failure =
      drainsim::fuzz::CheckOtlpBytes({reinterpret_cast<const char*>(data), size});
  if (!failure.empty()) {
    std::fprintf(stderr, "drainsim fuzz_otlp: property violated: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
