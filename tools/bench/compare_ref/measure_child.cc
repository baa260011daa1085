// measure_child OUT_JSON COMMAND [ARGS...]: runs COMMAND as a child and writes to OUT_JSON one
// JSON line: exit_code (or -signal), wall_s (fork to reap), user_s, sys_s, peak_rss_kib
// (ru_maxrss from wait4). COMMAND inherits stdin, stdout and stderr.
//
// Why a launcher at all: Linux keeps a process's peak RSS across execve (the old address
// space's high-water mark is folded into ru_maxrss), so a child forked from a 13 MiB Python
// driver reports at least 13 MiB whatever it runs. Forked from this small program, the floor
// is this program's own few MiB, below anything the measured programs need. GNU time would
// do the same; this avoids one more package.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: measure_child OUT_JSON COMMAND [ARGS...]\n");
    return 2;
  }
  std::FILE* out = std::fopen(argv[1], "w");
  if (out == nullptr) {
    std::fprintf(stderr, "measure_child: cannot write %s: %s\n", argv[1], std::strerror(errno));
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "measure_child: fork: %s\n", std::strerror(errno));
    return 2;
  }
  if (pid == 0) {
    std::fclose(out);
    execvp(argv[2], argv + 2);
    std::fprintf(stderr, "measure_child: cannot run %s: %s\n", argv[2], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  pid_t reaped = 0;
  do {
    reaped = wait4(pid, &status, 0, &usage);
  } while (reaped < 0 && errno == EINTR);
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (reaped != pid) {
    std::fprintf(stderr, "measure_child: wait4: %s\n", std::strerror(errno));
    return 2;
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  std::fprintf(out,
               "{\"exit_code\": %d, \"wall_s\": %.6f, \"user_s\": %.6f, \"sys_s\": %.6f, "
               "\"peak_rss_kib\": %ld}\n",
               code, wall_s, seconds(usage.ru_utime), seconds(usage.ru_stime), usage.ru_maxrss);
  return std::fclose(out) == 0 ? 0 : 2;
}
