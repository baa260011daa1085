// libFuzzer target for the scenario loader (built by tools/fuzz with clang).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string failure =
      drainsim::fuzz::CheckScenarioBytes({reinterpret_cast<const char*>(data), size});
  if (!failure.empty()) {
    std::fprintf(stderr, "drainsim fuzz: property violated: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
