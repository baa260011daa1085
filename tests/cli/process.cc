#include "tests/cli/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace drainsim::testing {

namespace {

// A fresh, empty file under /tmp; the caller removes it.
std::string TempPath() {
  char templ[] = "/tmp/drainsim-cli-XXXXXX";
  int fd = mkstemp(templ);
  if (fd >= 0) close(fd);
  return templ;
}

}  // namespace

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ProcessResult RunDrainsim(const std::vector<std::string>& args, const std::string& working_dir) {
  return RunBinary(DRAINSIM_BINARY, args, {}, working_dir);
}

ProcessResult RunBinary(const std::string& binary_path, const std::vector<std::string>& args,
                        const std::vector<std::string>& env, const std::string& working_dir) {
  const std::string out_path = TempPath();
  const std::string err_path = TempPath();
  std::vector<char*> argv;
  std::string binary = binary_path;
  argv.push_back(binary.data());
  std::vector<std::string> copies = args;
  for (std::string& arg : copies) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_copies = env;

  ProcessResult result;
  pid_t pid = fork();
  if (pid == 0) {
    int out_fd = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err_fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int null_fd = open("/dev/null", O_RDONLY);
    if (out_fd < 0 || err_fd < 0 || null_fd < 0) _exit(127);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    dup2(null_fd, 0);
    if (!working_dir.empty() && chdir(working_dir.c_str()) != 0) _exit(127);
    for (std::string& entry : env_copies) putenv(entry.data());
    // The signal tests need the default actions, whatever the test runner ignores.
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  if (pid > 0 && waitpid(pid, &status, 0) == pid) {
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  }
  result.stdout_text = ReadFile(out_path);
  result.stderr_text = ReadFile(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return result;
}

Spawned Spawn(const std::string& binary_path, const std::vector<std::string>& args,
              const std::vector<std::string>& env) {
  std::vector<char*> argv;
  std::string binary = binary_path;
  argv.push_back(binary.data());
  std::vector<std::string> copies = args;
  for (std::string& arg : copies) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_copies = env;
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    int null_fd = open("/dev/null", O_RDWR);
    if (null_fd < 0) _exit(127);
    dup2(null_fd, 0);
    dup2(null_fd, 1);
    dup2(fds[1], 2);
    close(fds[0]);
    for (std::string& entry : env_copies) putenv(entry.data());
    // The signal tests need the default actions, whatever the test runner ignores.
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fds[1]);
  return Spawned{pid, fds[0]};
}

namespace {

// Appends what the pipe has within `timeout_ms`; false at its end (or on an error).
bool ReadSome(int fd, std::string& text, int timeout_ms) {
  pollfd p{fd, POLLIN, 0};
  if (poll(&p, 1, timeout_ms) <= 0) return true;
  char buffer[4096];
  const ssize_t n = read(fd, buffer, sizeof buffer);
  if (n <= 0) return false;
  text.append(buffer, static_cast<size_t>(n));
  return true;
}

}  // namespace

bool WaitForStderr(Spawned& child, const std::string& text, int timeout_ms) {
  std::string seen;
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (seen.find(text) == std::string::npos) {
    if (std::chrono::steady_clock::now() > end || !ReadSome(child.stderr_fd, seen, 50)) {
      return false;
    }
  }
  return true;
}

ProcessResult Wait(Spawned& child) {
  ProcessResult result;
  int status = 0;
  if (child.pid > 0 && waitpid(child.pid, &status, 0) == child.pid) {
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  }
  // Only what is there now: a grandchild may still hold the pipe open.
  for (size_t before = 1; before != result.stderr_text.size();) {
    before = result.stderr_text.size();
    if (!ReadSome(child.stderr_fd, result.stderr_text, 0)) break;
  }
  close(child.stderr_fd);
  return result;
}

}  // namespace drainsim::testing
