#include "live/process.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <fstream>
#include <thread>

#include "live/stop_signal.h"

namespace drainsim::live {

namespace {

using Clock = std::chrono::steady_clock;

// The last lines of a server's log, for a start-up failure's message: the scratch directory
// that holds the log is removed when the start fails (unless --keep-data), so pointing at the
// file alone would point at nothing.
std::string LogTail(const std::string& log_path, size_t max_lines = 6) {
  std::ifstream in(log_path);
  std::deque<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    lines.push_back(line);
    if (lines.size() > max_lines) lines.pop_front();
  }
  if (lines.empty()) return " (its log is empty; --keep-data keeps it)";
  std::string tail = "; its log ends (--keep-data keeps it):";
  for (const std::string& line : lines) tail += "\n  " + line;
  return tail;
}

// Only what the child needs, as C arrays, built before fork (contract (4)).
struct PreparedExec {
  std::vector<char*> argv;
  std::vector<char*> envp;
  const char* cwd = nullptr;
  bool switch_user = false;
  bool pin = false;
  cpu_set_t cpus;
  uid_t uid = 0;
  gid_t gid = 0;
};

base::Status Prepare(const ChildSpec& spec, PreparedExec* out) {
  if (spec.argv.empty()) return base::Failure{"no program to run"};
  for (const std::string& arg : spec.argv) out->argv.push_back(const_cast<char*>(arg.c_str()));
  out->argv.push_back(nullptr);
  for (const std::string& var : spec.env) out->envp.push_back(const_cast<char*>(var.c_str()));
  out->envp.push_back(nullptr);
  if (!spec.cwd.empty()) out->cwd = spec.cwd.c_str();
  CPU_ZERO(&out->cpus);
  for (int c : spec.cpus) {
    if (c < 0 || c >= CPU_SETSIZE) return base::Failure{"no CPU " + std::to_string(c)};
    CPU_SET(c, &out->cpus);
    out->pin = true;
  }
  if (!spec.run_as_user.empty()) {
    const passwd* pw = getpwnam(spec.run_as_user.c_str());
    if (pw == nullptr) return base::Failure{"no user '" + spec.run_as_user + "' on this machine"};
    if (pw->pw_uid != geteuid()) {
      if (geteuid() != 0) {
        return base::Failure{"must be root to run a program as '" + spec.run_as_user + "'"};
      }
      out->switch_user = true;
      out->uid = pw->pw_uid;
      out->gid = pw->pw_gid;
    }
  }
  return {};
}

[[noreturn]] void ExecChild(const PreparedExec& prep, int log_fd, pid_t parent, int death_signal) {
  setpgid(0, 0);
  int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, 0);
  if (log_fd >= 0) {
    dup2(log_fd, 1);
    dup2(log_fd, 2);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  if (prep.switch_user) {
    if (setgroups(1, &prep.gid) != 0 || setgid(prep.gid) != 0 || setuid(prep.uid) != 0) _exit(126);
  }
  if (prep.cwd != nullptr && chdir(prep.cwd) != 0) _exit(124);
  if (prep.pin && sched_setaffinity(0, sizeof prep.cpus, &prep.cpus) != 0) _exit(123);
  // After the user switch: a credential change clears the parent-death signal (prctl(2)).
  prctl(PR_SET_PDEATHSIG, death_signal);
  if (getppid() != parent) _exit(125);  // drainsim died before prctl took effect
  execve(prep.argv[0], prep.argv.data(), prep.envp.data());
  _exit(127);
}

}  // namespace

Child::Child(Child&& other) noexcept : pid_(other.pid_), status_(other.status_) { other.pid_ = -1; }

Child& Child::operator=(Child&& other) noexcept {
  if (this != &other) {
    Stop(SIGKILL, std::chrono::milliseconds(0));
    pid_ = other.pid_;
    status_ = other.status_;
    other.pid_ = -1;
  }
  return *this;
}

Child::~Child() { Stop(SIGKILL, std::chrono::milliseconds(0)); }

base::Expected<Child> Child::Spawn(const ChildSpec& spec) {
  PreparedExec prep;
  if (base::Status prepared = Prepare(spec, &prep); !prepared) {
    return base::Failure{prepared.error()};
  }
  int log_fd = -1;
  if (!spec.log_path.empty()) {
    log_fd = open(spec.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log_fd < 0) {
      return base::Failure{"cannot open " + spec.log_path + ": " + std::strerror(errno)};
    }
    if (prep.switch_user && fchown(log_fd, prep.uid, prep.gid) != 0) {
      // Not fatal: the log is ours to read; the child writes through the inherited descriptor.
    }
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) ExecChild(prep, log_fd, parent, spec.death_signal);
  if (log_fd >= 0) close(log_fd);
  if (pid < 0) return base::Failure{std::string("fork failed: ") + std::strerror(errno)};
  setpgid(pid, pid);  // also from the parent, so the group exists before we ever signal it
  Child child;
  child.pid_ = pid;
  return child;
}

bool Child::Running() {
  if (pid_ < 0 || status_) return false;
  int status = 0;
  const pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    status_ = status;
    return false;
  }
  return r == 0;
}

bool Child::WaitExit(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (Running()) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

bool GroupAlive(pid_t pgid) { return pgid > 0 && (kill(-pgid, 0) == 0 || errno == EPERM); }

bool Child::Stop(int first_signal, std::chrono::milliseconds grace) {
  if (pid_ < 0) return true;
  bool clean = true;
  if (GroupAlive(pid_)) {
    kill(-pid_, first_signal);
    const auto deadline = Clock::now() + grace;
    while (GroupAlive(pid_) && Clock::now() < deadline) {
      Running();  // reap the leader so that it does not keep the group alive as a zombie
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (GroupAlive(pid_)) {
      clean = first_signal == SIGKILL;
      kill(-pid_, SIGKILL);
    }
  }
  if (!status_) {
    int status = 0;
    if (waitpid(pid_, &status, 0) == pid_) status_ = status;
  }
  // The group can outlive its leader for a moment after SIGKILL: wait for the kernel.
  for (int i = 0; i < 250 && GroupAlive(pid_); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  pid_ = -1;
  return clean;
}

base::Expected<int> RunToCompletion(const ChildSpec& spec, std::chrono::milliseconds timeout) {
  base::Expected<Child> child = Child::Spawn(spec);
  if (!child) return base::Failure{child.error()};
  if (!child->WaitExit(timeout)) {
    child->Stop(SIGKILL, std::chrono::milliseconds(0));
    return base::Failure{spec.argv[0] + " did not finish in " + std::to_string(timeout.count()) +
                         " ms"};
  }
  const int status = *child->exit_status();
  if (!WIFEXITED(status)) {
    return base::Failure{spec.argv[0] + " was killed by signal " +
                         std::to_string(WTERMSIG(status))};
  }
  return WEXITSTATUS(status);
}

base::Status WaitUntilReady(Child& server, const std::string& what, const std::string& log_path,
                            std::chrono::milliseconds timeout, std::chrono::milliseconds poll,
                            const std::function<bool()>& ready) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!ready()) {
    if (!server.Running()) {
      return base::Failure{what + " exited during start-up" + LogTail(log_path)};
    }
    if (StopRequested()) return base::Failure{"interrupted while " + what + " was starting"};
    if (std::chrono::steady_clock::now() >= deadline) {
      return base::Failure{what + " not ready after " + std::to_string(timeout.count()) + " ms" +
                           LogTail(log_path)};
    }
    std::this_thread::sleep_for(poll);
  }
  return {};
}

}  // namespace drainsim::live
