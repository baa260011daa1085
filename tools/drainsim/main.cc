#include <cstdio>
#include <exception>
#include <string>

#include "experiments/runner.h"
#include "tools/drainsim/cli.h"

int main(int argc, char** argv) {
  drainsim::cli::Args args(argv + 1, argv + argc);
  try {
    return drainsim::cli::Main(args);
  } catch (const drainsim::experiments::ModelErrorInRun& e) {
    // An experiment met a run that broke a model invariant (experiments/runner.h): nothing was
    // written, and the same command line replays it (runs are deterministic).
    std::string command = "drainsim";
    for (const std::string& arg : args) command += " " + drainsim::cli::ShellQuoted(arg);
    std::fprintf(stderr, "drainsim: %s\nreproduce: %s\n", e.what(), command.c_str());
    return drainsim::cli::kExitModelError;
  } catch (const std::exception& e) {
    // Operating errors are handled where they arise; reaching here is an input the code did
    // not anticipate. Report it as bad input rather than crash, and make it findable.
    std::fprintf(stderr, "drainsim: error: %s\n", e.what());
    return drainsim::cli::kExitBadInput;
  }
}
