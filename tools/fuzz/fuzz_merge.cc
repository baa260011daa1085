// libFuzzer target for `drainsim merge`'s part reader and merge (built by tools/fuzz with
// clang): bytes split at form feeds into part files (merge_check.h).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/fuzz/merge_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string failure =
      drainsim::fuzz::CheckMergeBytes({reinterpret_cast<const char*>(data), size});
  if (!failure.empty()) {
    std::fprintf(stderr, "drainsim fuzz_merge: property violated: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
