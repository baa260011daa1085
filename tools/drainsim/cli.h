// The drainsim command line: one binary, several subcommands.
//
// Contract:
//  (1) Exit codes: kExitOk (0) success; kExitExpectationFailed (1) a scenario ran but one of its
//      expectations failed; kExitBadInput (2) bad input or bad usage. Nothing else is returned
//      on an operating error; a crash is a bug. kExitModelError (3): a run broke a model
//      invariant (Results::model_error, a drainsim bug): `run` and every experiment command.
//      `swarm` adds 3, 4, 5 and 6 (below) for what its seeds found. kExitPendingMessagesMax (7):
//      a run would have held more messages pending at once than --pending-messages-max
//      (sim/model/memory_cost.h): it was stopped and nothing was written; every command that
//      simulates (`run`, the experiments, `explain`, `live`).
//  (2) Every subcommand answers --help on stdout with exit 0.
//  (3) Bad input is reported on stderr, one line per problem, "FILE: /pointer: message".
#pragma once

#include <string>
#include <vector>

namespace drainsim::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitExpectationFailed = 1;
inline constexpr int kExitBadInput = 2;
// A run broke a model invariant: a drainsim bug, reported with the command that reproduces it.
// The same code as the swarm's correctness failure, which it is.
inline constexpr int kExitModelError = 3;
// A run reached the cap on messages pending at once (RunOptions::pending_messages_max): a
// queue that runs away, or a machine's memory limit, not a bug. Its own code, distinct from
// every other command's, so that a script can tell it from bad input (2) and from the swarm's.
inline constexpr int kExitPendingMessagesMax = 7;
// `drainsim swarm` (docs/SWARM.md) exits with the worst its seeds found: crash > correctness >
// liveness > timeout.
inline constexpr int kExitSwarmCorrectness = 3;  // conservation, determinism, invalid variant
inline constexpr int kExitSwarmLiveness = 4;     // a message not at rest after the liveness phase
inline constexpr int kExitSwarmCrash = 5;        // a seed's child process died
inline constexpr int kExitSwarmTimeout = 6;      // a seed still running at --seed-timeout-s

// A subcommand receives the arguments after its name.
using Args = std::vector<std::string>;

struct Subcommand {
  const char* name;
  const char* summary;  // one line for `drainsim --help`
  int (*run)(const Args& args);
};

// Every subcommand, in the order `drainsim --help` lists them.
const std::vector<Subcommand>& Subcommands();

// `arg` as a POSIX shell word: unchanged when it is only letters, digits and _./=:,+@%-, else
// in single quotes.
std::string ShellQuoted(const std::string& arg);

// Dispatches argv (without the program name) to a subcommand; handles --help and --version.
int Main(const Args& args);

// Subcommands (one file each).
int RunBacktest(const Args& args);
int RunCheck(const Args& args);
int RunCompare(const Args& args);
int RunDump(const Args& args);
int RunExplain(const Args& args);
int RunFit(const Args& args);
int RunLive(const Args& args);
int RunMerge(const Args& args);
int RunRun(const Args& args);
int RunSwarm(const Args& args);
int RunSweep(const Args& args);
int RunTune(const Args& args);

}  // namespace drainsim::cli
