// Command-line glue shared by the experiment commands (`run --replications`, `compare`,
// `sweep`, `tune`, `merge`): loading a scenario for editing, the common options, and writing
// the output files. The experiments themselves live in experiments/; this file only turns
// flags into their inputs and their outputs into files.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "experiments/loaded_scenario.h"
#include "experiments/metric_spec.h"
#include "experiments/partial.h"
#include "experiments/runner.h"
#include "reports/output.h"
#include "sim/base/expected.h"
#include "sim/config/config.h"
#include "tools/drainsim/options.h"
#include "tools/drainsim/progress.h"

namespace drainsim::cli {

// The scenario as the experiments load it (experiments/loaded_scenario.h).
using LoadedScenario = experiments::LoadedScenario;

// Loads and validates `path`; prints every plausibility warning and every problem ("FILE:
// /pointer: message") to stderr; nullopt on bad input.
std::optional<LoadedScenario> LoadForExperiment(const std::string& path);

// --metric (repeatable, or comma-separated), --confidence, --jobs.
void AddMetricOptions(po::options_description& options);
void AddJobsOption(po::options_description& options);

// The metrics --metric names, or DefaultMetricNames when none; bad names are printed as
// "drainsim COMMAND: --metric NAME: why" and give nullopt.
std::optional<std::vector<experiments::MetricSpec>> MetricsFromOptions(
    const char* command, const po::variables_map& vm, const nlohmann::json& document);

// --confidence (in [0.5, 1)) and --jobs (1..kJobsMax), or the usage error without the command
// ("--jobs must be in 1..256").
base::Expected<double> ConfidenceOption(const po::variables_map& vm);
base::Expected<int> JobsOption(const po::variables_map& vm);
// Both, in that order (every experiment command reads the two): success, or the first error.
base::Status ReadConfidenceAndJobs(const po::variables_map& vm, double* confidence, int* jobs);

// --shard i/N when given (nullopt when not), or the usage error ("--shard '0/4': ...").
base::Expected<std::optional<experiments::Shard>> ShardOption(const po::variables_map& vm);

// Prints "drainsim COMMAND: MESSAGE" on stderr and returns kExitBadInput.
int BadInput(const char* command, const std::string& message);

// --quiet: no progress line (compare, sweep and tune; `run` has its own).
void AddQuietOption(po::options_description& options);
// True unless --quiet was given (or the command has no such option).
bool ProgressWanted(const po::variables_map& vm);

// RunOptions::test_stall_at from the environment variable DRAINSIM_TEST_STALL_AT_S (seconds),
// for the tests of exit code 3 only; unset or not a number >= 0: never. Not a user option.
engine::Instant TestStallAt();

// --pending-messages-max N (RunOptions::pending_messages_max, 1..kPendingMessagesMaxLimit,
// default kPendingMessagesMaxDefault; sim/model/memory_cost.h): every command that simulates.
// A value out of range is a usage error (exit 2).
void AddPendingMessagesMaxOption(po::options_description& options);
// The option's value, or the model's default when the command has no such option.
int64_t PendingMessagesMax(const po::variables_map& vm);

// Runner options for --jobs (and --audit and --pending-messages-max when the command has them). With `progress`, every
// finished run updates it: "37%  run 37 of 100" (tools/drainsim/progress.h: drawn only on a
// terminal, never part of a result).
experiments::RunnerOptions RunnerOptionsFrom(const po::variables_map& vm, int jobs,
                                             ProgressLine* progress = nullptr);

// An experiment's header, common to `run --replications` and `sweep`: the scenario, the
// version, the base seed (--seed, else the scenario's), replications, confidence and metrics.
experiments::Experiment ExperimentFor(const char* command, const LoadedScenario& loaded,
                                      const po::variables_map& vm, int64_t replications,
                                      double confidence,
                                      const std::vector<experiments::MetricSpec>& metrics);

// The output directory: --out, else out/ + the safe form of `default_component`
// (tools/drainsim/out_dir.h). Checked before anything is simulated: nullopt, with the reason
// printed as "drainsim COMMAND: ...", when it is not a directory that can be written.
std::optional<std::string> OutDirFor(const char* command, const po::variables_map& vm,
                                     const std::string& default_component);

// Prints rendered.text, writes its files into `dir` and lists them ("report: DIR/FILE").
// Returns rendered.exit_code, or kExitBadInput when a file cannot be written.
int Emit(const char* command, const reports::Rendered& rendered, const std::string& dir);

// A shard's runs (--shard i/N): writes DIR/part-i-of-N.json and prints "shard i/N of SUBJECT: K
// of TOTAL UNIT" and "partial: FILE". Returns kExitOk, or kExitBadInput when it cannot be written.
int EmitPartial(const char* command, const std::string& dir, const experiments::Partial& partial,
                const std::string& subject, int64_t total, const char* unit);

// `drainsim run --replications ...` (cmd_run_replications.cc); called by RunRun when one of
// the replication options is given. `vm` holds run's options, AddReplicationOptions's included.
void AddReplicationOptions(po::options_description& options);
bool WantsReplications(const po::variables_map& vm);
int RunReplicated(const po::variables_map& vm);

}  // namespace drainsim::cli
