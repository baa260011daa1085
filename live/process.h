// Child processes for the private brokers of `drainsim live`: spawn one in its own process group,
// as another user if need be, and stop the whole group for sure.
//
// Contract:
//  (1) Spawn() returns a Child whose pid leads a new process group (setpgid(0, 0)), so Stop()
//      reaches the shell scripts and the programs they start (rabbitmq-server's sh + beam.smp).
//  (2) The child gets `death_signal` when drainsim dies (prctl PR_SET_PDEATHSIG, set after the
//      user switch, which would clear it), so even a SIGKILLed drainsim does not leave a running
//      broker behind; its data directory then stays in /tmp.
//  (3) Stop() is idempotent: first_signal to the group, at most `grace` to exit, then SIGKILL to
//      the group; it always reaps the leader (no zombie).
//  (4) Between fork and exec the child calls async-signal-safe functions only: every string,
//      the user's ids and the environment are prepared before fork.
//
// Thread-safety: a Child is used by one thread.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/expected.h"

namespace drainsim::live {

struct ChildSpec {
  std::vector<std::string> argv;  // argv[0] is the program's absolute path
  std::vector<std::string> env;   // the whole environment, "NAME=value"; nothing is inherited
  std::string run_as_user;        // empty: the current user; otherwise switch (needs root)
  std::string log_path;           // stdout and stderr, appended; stdin is /dev/null
  std::string cwd;        // empty: drainsim's (which the other user may not be allowed into)
  int death_signal = 15;  // sent to the child when drainsim dies
  // The CPUs the child (and every process it forks) may run on (sched_setaffinity before exec);
  // empty: drainsim's own. `drainsim live --db-cpus` (live/db_cpu.h).
  std::vector<int> cpus;
};

class Child {
 public:
  Child() = default;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  Child(Child&& other) noexcept;
  Child& operator=(Child&& other) noexcept;
  ~Child();  // Stop(SIGKILL, 0)

  // fork + exec `spec`: the running child (pid() > 0), or why it could not start.
  static base::Expected<Child> Spawn(const ChildSpec& spec);

  pid_t pid() const { return pid_; }
  // True while the leader has not exited (reaps it when it has; exit status in exit_status()).
  bool Running();
  // Waits up to `timeout` for the leader to exit; true if it did.
  bool WaitExit(std::chrono::milliseconds timeout);
  // See (3). Returns true if the group ended within the grace period (no SIGKILL needed).
  bool Stop(int first_signal, std::chrono::milliseconds grace);
  // The raw waitpid status, once the leader has exited.
  std::optional<int> exit_status() const { return status_; }

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
};

// True while any process of group `pgid` exists (kill(-pgid, 0)).
bool GroupAlive(pid_t pgid);

// Runs `spec` to completion (at most `timeout`, then the group is killed). Returns the exit
// code (>= 0), or why there is none (could not start, killed by a signal, timed out).
base::Expected<int> RunToCompletion(const ChildSpec& spec, std::chrono::milliseconds timeout);

// Polls `ready` every `poll` until it returns true, for a server `server` just started. Fails
// when the server exits (its log `log_path` quoted), a stop is requested (stop_signal.h) or
// `timeout` passes; `what` names the server in the messages ("PostgreSQL").
base::Status WaitUntilReady(Child& server, const std::string& what, const std::string& log_path,
                            std::chrono::milliseconds timeout, std::chrono::milliseconds poll,
                            const std::function<bool()>& ready);

}  // namespace drainsim::live
