#include "tools/drainsim/options.h"

#include <cstdint>
#include <cstdio>
#include <iostream>

namespace drainsim::cli {

namespace {

// Boost reads "-1" as an unsigned option's value by wrapping it to 2^64 - 1 (issue 20, defect
// 8). Every unsigned option of every subcommand is refused a value with a minus sign instead.
void RefuseNegativeUnsigned(const po::options_description& options,
                            const po::parsed_options& parsed) {
  for (const po::option& option : parsed.options) {
    const po::option_description* description = options.find_nothrow(option.string_key, false);
    if (description == nullptr) continue;
    const po::value_semantic* semantic = description->semantic().get();
    const bool is_unsigned = dynamic_cast<const po::typed_value<uint64_t>*>(semantic) ||
                             dynamic_cast<const po::typed_value<uint32_t>*>(semantic);
    if (!is_unsigned) continue;
    for (const std::string& value : option.value) {
      const size_t first = value.find_first_not_of(" \t");
      if (first != std::string::npos && value[first] == '-') {
        throw po::error("--" + option.string_key + " must not be negative (got " + value + ")");
      }
    }
  }
}

}  // namespace

std::optional<int> ParseCommandLine(CommandLine& line, const Args& args, po::variables_map& vm) {
  line.options.add_options()("help,h", "show this help and exit");
  try {
    const po::parsed_options parsed = po::command_line_parser(args)
                                          .options(line.options)
                                          .positional(line.positional)
                                          .style(po::command_line_style::unix_style)
                                          .run();
    RefuseNegativeUnsigned(line.options, parsed);
    po::store(parsed, vm);
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
