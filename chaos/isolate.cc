#include "chaos/isolate.h"

#include <poll.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <vector>

#include "sim/base/check.h"
#include "sim/base/coverage.h"

namespace drainsim::chaos {

namespace {

// The child's end of its report pipe, for the check-failure hook (which takes no context).
int g_report_fd = -1;

// The running children's pids (0: a free slot), for the parent's signal handler (contract 4).
// A slot is cleared before its child is reaped, so the handler never signals a reused pid.
std::atomic<pid_t> g_children[kIsolationJobsMax];
constexpr int kParentSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The parent's handler: kill and reap every child, then die of the same signal (it is blocked
// while the handler runs, so the raise takes effect on return, with the default action).
void KillChildrenAndDie(int signal) {
  for (std::atomic<pid_t>& slot : g_children) {
    if (const pid_t pid = slot.load(); pid > 0) kill(pid, SIGKILL);
  }
  for (std::atomic<pid_t>& slot : g_children) {
    if (const pid_t pid = slot.exchange(0); pid > 0) waitpid(pid, nullptr, 0);
  }
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  sigaction(signal, &default_action, nullptr);
  raise(signal);
}

// Installs KillChildrenAndDie for as long as it lives; restores the earlier handlers.
class ParentHandlers {
 public:
  ParentHandlers() {
    struct sigaction action = {};
    action.sa_handler = &KillChildrenAndDie;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < std::size(kParentSignals); ++i) {
      // A signal the swarm was started to ignore (nohup) stays ignored.
      sigaction(kParentSignals[i], nullptr, &old_[i]);
      if (old_[i].sa_handler != SIG_IGN) sigaction(kParentSignals[i], &action, nullptr);
    }
  }
  ~ParentHandlers() {
    for (size_t i = 0; i < std::size(kParentSignals); ++i) {
      sigaction(kParentSignals[i], &old_[i], nullptr);
    }
  }
  ParentHandlers(const ParentHandlers&) = delete;
  ParentHandlers& operator=(const ParentHandlers&) = delete;

 private:
  struct sigaction old_[std::size(kParentSignals)];
};

void Remember(pid_t pid) {
  for (std::atomic<pid_t>& slot : g_children) {
    pid_t free = 0;
    if (slot.compare_exchange_strong(free, pid)) return;
  }
}

void Forget(pid_t pid) {
  for (std::atomic<pid_t>& slot : g_children) {
    pid_t expected = pid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

void WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone; nobody is left to tell
    data += n;
    size -= static_cast<size_t>(n);
  }
}

void WriteCheckRecord(const char* file, int line, const char* condition) {
  char record[1024];
  const int n = std::snprintf(record, sizeof record, "C %s:%d: %s\n", file, line, condition);
  if (n <= 0) return;
  // A record cut to the buffer still needs its newline to be read.
  if (static_cast<size_t>(n) >= sizeof record) record[sizeof record - 2] = '\n';
  WriteAll(g_report_fd, record, std::min(static_cast<size_t>(n), sizeof record - 1));
}

[[noreturn]] void RunChild(int fd, uint64_t seed, double timeout_s, pid_t parent,
                           const std::function<SeedReport(uint64_t)>& work) {
#ifdef __linux__
  // Dies with the parent even when the parent is killed outright; and if it already died
  // between fork and here, stop now.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  if (getppid() != parent) _exit(1);
  for (int sig : kParentSignals) {  // the parent's handler is not the child's
    struct sigaction current;
    sigaction(sig, nullptr, &current);
    if (current.sa_handler == &KillChildrenAndDie) signal(sig, SIG_DFL);
  }
  g_report_fd = fd;
  base::SetCheckFailureHandler(&WriteCheckRecord);
  // The parent classifies by how the child died: a host that handles these (Catch2 does, to
  // report a crashed test) must not turn the abort or the timeout into something else.
  signal(SIGABRT, SIG_DFL);
  signal(SIGALRM, SIG_DFL);
  if (timeout_s > 0) {
    itimerval timer = {};
    const double whole_s = std::floor(timeout_s);
    timer.it_value.tv_sec = static_cast<time_t>(whole_s);
    timer.it_value.tv_usec = static_cast<suseconds_t>((timeout_s - whole_s) * 1e6);
    if (timer.it_value.tv_sec == 0 && timer.it_value.tv_usec == 0) timer.it_value.tv_usec = 1;
    setitimer(ITIMER_REAL, &timer, nullptr);
  }
  SeedReport report;
  try {
    report = work(seed);
  } catch (const std::exception& e) {
    report.Fail(Verdict::kCrash, std::string("crash: uncaught exception: ") + e.what());
  } catch (...) {
    report.Fail(Verdict::kCrash, "crash: uncaught exception of unknown type");
  }
  const std::string text = EncodeSeedReport(report);
  WriteAll(fd, text.data(), text.size());
  base::FlushCoverage();  // _exit runs no atexit handler
  _exit(0);
}

bool HasCheckRecord(const std::string& text) {
  return text.rfind("C ", 0) == 0 || text.find("\nC ") != std::string::npos;
}

// "1", "0.25": seconds as the user wrote them.
std::string SecondsText(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

SeedReport Classify(uint64_t seed, const std::string& text, int status, double timeout_s) {
  SeedReport report = DecodeSeedReport(seed, text);
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    if (HasCheckRecord(text)) return report;  // the abort that follows a failed check
    if (signal == SIGALRM && timeout_s > 0) {
      // Not a crash: the seed found nothing wrong, it only did not finish in time.
      report.verdict = Verdict::kTimeout;
      report.problems.push_back("timeout: still running after " + SecondsText(timeout_s) +
                                " s of wall clock (--seed-timeout-s): killed");
    } else {
      report.Fail(Verdict::kCrash, "crash: killed by signal " + std::to_string(signal) + " (" +
                                       strsignal(signal) + ")");
    }
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    report.Fail(Verdict::kCrash,
                "crash: exited with status " + std::to_string(WEXITSTATUS(status)));
  } else if (report.verdict == Verdict::kCrash && report.problems.empty()) {
    report.Fail(Verdict::kCrash, "crash: the child ended without a verdict");
  }
  return report;
}

struct Child {
  uint64_t seed = 0;
  pid_t pid = -1;
  int fd = -1;
  std::string text;
};

// Starts the child for `seed`. Returns an error message, or "".
std::string Start(uint64_t seed, double timeout_s, const std::function<SeedReport(uint64_t)>& work,
                  std::vector<Child>& running) {
  int fds[2];
  if (pipe(fds) != 0) return std::string("cannot create a pipe: ") + std::strerror(errno);
  // Whatever the parent buffered must not be written twice, once by each process.
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    const std::string error = std::string("cannot fork: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return error;
  }
  if (pid == 0) {
    close(fds[0]);
    RunChild(fds[1], seed, timeout_s, parent, work);
  }
  Remember(pid);
  close(fds[1]);
  running.push_back(Child{seed, pid, fds[0], ""});
  return "";
}

// Reads what is there from each child that has something; reaps the children whose pipes
// closed. Returns the finished reports.
std::vector<SeedReport> Collect(std::vector<Child>& running, double timeout_s) {
  std::vector<pollfd> polls;
  for (const Child& child : running) polls.push_back(pollfd{child.fd, POLLIN, 0});
  while (poll(polls.data(), polls.size(), -1) < 0) {
    if (errno != EINTR) break;
  }
  std::vector<SeedReport> finished;
  std::vector<Child> still_running;
  for (size_t i = 0; i < running.size(); ++i) {
    Child& child = running[i];
    bool closed = false;
    if (polls[i].revents != 0) {
      char buffer[4096];
      const ssize_t n = read(child.fd, buffer, sizeof buffer);
      if (n > 0) {
        child.text.append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        closed = true;
      }
    }
    if (!closed) {
      still_running.push_back(std::move(child));
      continue;
    }
    close(child.fd);
    Forget(child.pid);
    int status = 0;
    while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
    finished.push_back(Classify(child.seed, child.text, status, timeout_s));
  }
  running = std::move(still_running);
  return finished;
}

}  // namespace

std::string RunIsolated(uint64_t first_seed, uint64_t count, const IsolationOptions& options,
                        const std::function<SeedReport(uint64_t)>& work,
                        const std::function<void(const SeedReport&)>& on_report) {
  DRAINSIM_CHECK(count >= 1);
  DRAINSIM_CHECK(options.jobs >= 1 && options.jobs <= kIsolationJobsMax);
  const ParentHandlers handlers;
  DRAINSIM_CHECK(first_seed + (count - 1) >= first_seed);
  std::string error;
  uint64_t started = 0;
  uint64_t next_to_report = first_seed;
  std::vector<Child> running;
  std::map<uint64_t, SeedReport> waiting;  // finished, but an earlier seed is still running
  while ((started < count && error.empty()) || !running.empty()) {
    while (error.empty() && started < count && running.size() < static_cast<size_t>(options.jobs)) {
      error = Start(first_seed + started, options.timeout_s, work, running);
      if (error.empty()) ++started;
    }
    if (running.empty()) break;
    for (SeedReport& report : Collect(running, options.timeout_s)) {
      waiting.emplace(report.seed, std::move(report));
    }
    for (auto it = waiting.find(next_to_report); it != waiting.end();
         it = waiting.find(next_to_report)) {
      on_report(it->second);
      waiting.erase(it);
      ++next_to_report;
    }
  }
  return error;
}

}  // namespace drainsim::chaos
