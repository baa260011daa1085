#include "tests/cli/process.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

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
  const std::string out_path = TempPath();
  const std::string err_path = TempPath();
  std::vector<char*> argv;
  std::string binary = DRAINSIM_BINARY;
  argv.push_back(binary.data());
  std::vector<std::string> copies = args;
  for (std::string& arg : copies) argv.push_back(arg.data());
  argv.push_back(nullptr);

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

}  // namespace drainsim::testing
