// The first half of every fit round trip (tests/telemetry/*_cli_test.cc): run a scenario with
// --format otlp, then fit its traces; each step REQUIREs exit 0 and shows stderr when not.
#pragma once

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/cli/process.h"

namespace drainsim::testing {

// `drainsim run SCENARIO --format otlp --out DIR/out`; the traces' path.
inline std::string RunAsOtlp(const std::string& scenario, const std::filesystem::path& dir) {
  const ProcessResult run =
      RunDrainsim({"run", scenario, "--format", "otlp", "--out", (dir / "out").string()});
  INFO(run.stderr_text);
  REQUIRE(run.exit_code == 0);
  return (dir / "out" / "otlp-traces.json").string();
}

// `drainsim fit TRACES`: the fragment on stdout, the summary on stderr.
inline ProcessResult FitTraces(const std::string& traces) {
  ProcessResult fit = RunDrainsim({"fit", traces});
  INFO(fit.stderr_text);
  REQUIRE(fit.exit_code == 0);
  return fit;
}

}  // namespace drainsim::testing
