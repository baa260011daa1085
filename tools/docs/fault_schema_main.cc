// Prints the fault part of scenarios/schema.json (fault_schema.h) as JSON; a build-time helper
// of tools/docs/regenerate, not a drainsim subcommand.
#include <iostream>

#include "tools/docs/fault_schema.h"

int main() {
  std::cout << drainsim::tools::FaultSchemaDefs().dump(2) << "\n";
  return 0;
}
