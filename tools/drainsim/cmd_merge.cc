// `drainsim merge PARTS...`: the partial results of `--shard i/N` runs combined into exactly the
// output the unsharded command would have printed and written (experiments/partial.h).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "experiments/experiment_result.h"
#include "experiments/partial.h"
#include "tools/drainsim/experiment_cli.h"

namespace drainsim::cli {

namespace {

namespace fs = std::filesystem;

const char* kMergeDescription =
    "Reads the part-i-of-N.json files that `drainsim run --replications ... --shard i/N` or\n"
    "`drainsim sweep ... --shard i/N` wrote - one per shard, all N of them, from the same\n"
    "binary - and prints and writes what the unsharded command would have: the same bytes.\n"
    "Parts of different experiments, a missing or repeated shard, or a part from another\n"
    "drainsim version are refused (exit 2).\n"
    "--format junit,html adds junit.xml and replications.html to merged replications, as\n"
    "`drainsim run --replications --format` does unsharded (a shard writes neither).\n"
    "Exit code as the unsharded command: 0, 1 when `run`'s expectations failed in some\n"
    "replication, 2 on bad input or usage.";

// The whole file, or nullopt when it cannot be read.
std::optional<std::string> ReadWhole(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

int RunMerge(const Args& args) {
  CommandLine line("merge", "merge PART... [--format junit,html] [--out DIR]", kMergeDescription);
  line.options.add_options()("parts", po::value<std::vector<std::string>>()->required(),
                             "partial result files")(
      "format", po::value<std::string>()->default_value("json"),
      "merged replications: junit,html add junit.xml and replications.html (json, csv and md "
      "are always written)")(
      "out", po::value<std::string>(),
      "output directory (default: the unsharded command's, out/SCENARIO-NAME[-sweep])");
  line.positional.add("parts", -1);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;
  const base::Expected<reports::ReplicationFormats> formats =
      reports::ParseReplicationFormats(vm["format"].as<std::string>());
  if (!formats) {
    std::fprintf(stderr, "drainsim merge: --format: %s\n", formats.error().c_str());
    return kExitBadInput;
  }

  const std::vector<std::string> names = vm["parts"].as<std::vector<std::string>>();
  std::vector<experiments::Partial> parts;
  for (const std::string& name : names) {
    const std::optional<std::string> text = ReadWhole(name);
    if (!text) {
      std::fprintf(stderr, "drainsim merge: %s: cannot read it\n", name.c_str());
      return kExitBadInput;
    }
    base::Expected<experiments::Partial> part = experiments::ReadPartial(*text);
    if (!part) {
      std::fprintf(stderr, "drainsim merge: %s: %s\n", name.c_str(), part.error().c_str());
      return kExitBadInput;
    }
    parts.push_back(std::move(*part));
  }
  base::Expected<experiments::Merged> merged = experiments::Merge(parts, names);
  if (!merged) {
    std::fprintf(stderr, "drainsim merge: %s\n", merged.error().c_str());
    return kExitBadInput;
  }
  const experiments::Experiment& e = merged->experiment;
  const bool sweep = e.command == "sweep";
  if (sweep && (formats->junit || formats->html)) {
    std::fprintf(stderr,
                 "drainsim merge: --format junit and html are for merged replications, not "
                 "sweeps\n");
    return kExitBadInput;
  }
  const std::optional<std::string> out_dir =
      OutDirFor("merge", vm, e.scenario_name + (sweep ? "-sweep" : ""));
  if (!out_dir) return kExitBadInput;
  return Emit("merge", experiments::RenderExperiment(e, merged->records, *formats), *out_dir);
}

}  // namespace drainsim::cli
