// Boost.Program_options glue shared by the subcommands: parse, answer --help, and turn every
// usage mistake into a message and exit code 2.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>

#include "tools/drainsim/cli.h"

namespace drainsim::cli {

namespace po = boost::program_options;

struct CommandLine {
  CommandLine(const char* command_name, const char* synopsis_text, const char* description_text)
      : command(command_name), synopsis(synopsis_text), description(description_text) {}
  const char* command;      // "check"
  const char* synopsis;     // "check SCENARIO..."
  const char* description;  // a paragraph for --help
  po::options_description options{"options", 100};
  po::positional_options_description positional;
};

// Parses `args` into `vm`. Returns an exit code when the caller should stop (--help printed: 0;
// usage error printed: 2), nullopt when it should go on. --help is added to `line.options`.
std::optional<int> ParseCommandLine(CommandLine& line, const Args& args, po::variables_map& vm);

}  // namespace drainsim::cli
