#include <cstdio>
#include <exception>

#include "tools/drainsim/cli.h"

int main(int argc, char** argv) {
  drainsim::cli::Args args(argv + 1, argv + argc);
  try {
    return drainsim::cli::Main(args);
  } catch (const std::exception& e) {
    // Operating errors are handled where they arise; reaching here is an input the code did
    // not anticipate. Report it as bad input rather than crash, and make it findable.
    std::fprintf(stderr, "drainsim: error: %s\n", e.what());
    return drainsim::cli::kExitBadInput;
  }
}
