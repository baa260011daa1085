// `drainsim live --serve-services --state-file F`: one private RabbitMQ and PostgreSQL pair kept
// up for several `drainsim live SCENARIO --amqp URL --postgres URL` runs (the live suite's
// shared pair, tests/live/CMakeLists.txt: a ctest fixture), instead of a pair per run.
//
// Decision: a mode of drainsim rather than a Python daemon, so that the pair is started, owned
// and stopped by exactly the code `--check-services` and every live run use (live/services.h):
// the same ports, users, scratch directory and parent-death signal; if this process is killed,
// the services get that signal and die with it.
//
// Contract:
//  (1) Starts the pair as --check-services does (PostgreSQL with room for every run's pool), then
//      writes F whole (a temporary file renamed onto F): JSON with the URLs, drainsim's pid, the
//      services' pids and ports, the scratch directory and how to run rabbitmqctl for the node
//      (argv, environment, user, cwd), and prints the same "rabbitmq: ..." / "postgres: ..."
//      lines as a live run. F is not written when the services cannot start (exit 2).
//  (2) Serves until SIGTERM/SIGINT, until F is removed, or until max_s wall seconds have passed
//      (a forgotten fixture ends by itself), whichever comes first; then stops the pair, removes
//      its scratch directory and F, and prints "services stopped in S s".
//  (3) Exit 0 when stopped by a signal or by F's removal; 2 when the services could not start,
//      F could not be written, or the time bound ended it (the fixture's cleanup never came).
#pragma once

#include <string>

#include "live/services.h"

namespace drainsim::cli {

inline constexpr double kServeMaxS = 1800;  // 30 minutes: the whole CI's budget

int ServeServices(live::ServiceOptions options, const std::string& state_file, double max_s);

}  // namespace drainsim::cli
