#include "tools/drainsim/options.h"

#include <cstdio>
#include <iostream>

namespace drainsim::cli {

std::optional<int> ParseCommandLine(CommandLine& line, const Args& args, po::variables_map& vm) {
  line.options.add_options()("help,h", "show this help and exit");
  try {
    po::store(po::command_line_parser(args)
                  .options(line.options)
                  .positional(line.positional)
                  .style(po::command_line_style::unix_style)
                  .run(),
              vm);
    if (vm.count("help")) {
      std::cout << "usage: drainsim " << line.synopsis << "\n\n"
                << line.description << "\n\n"
                << line.options << "\n";
      return kExitOk;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::fprintf(stderr, "drainsim %s: %s\nusage: drainsim %s (see drainsim %s --help)\n",
                 line.command, e.what(), line.synopsis, line.command);
    return kExitBadInput;
  }
  return std::nullopt;
}

}  // namespace drainsim::cli
