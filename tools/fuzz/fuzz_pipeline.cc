// libFuzzer target for the whole pipeline (built by tools/fuzz with clang): the bytes decode to
// a valid scenario (scenario_gen.h), which is run with the audit on, rendered in every format
// and checked (pipeline_check.h). A broken model invariant aborts inside the run; a violated
// property aborts here.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/fuzz/pipeline_check.h"
#include "tools/fuzz/scenario_gen.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text =
      drainsim::fuzz::GenerateScenarioJson({reinterpret_cast<const char*>(data), size});
  const drainsim::fuzz::PipelineOutcome outcome = drainsim::fuzz::CheckPipeline(text);
  if (!outcome.failure.empty()) {
    std::fprintf(stderr, "drainsim fuzz_pipeline: property violated: %s\nscenario:\n%s\n",
                 outcome.failure.c_str(), text.c_str());
    std::abort();
  }
  return 0;
}
