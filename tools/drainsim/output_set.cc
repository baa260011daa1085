#include "tools/drainsim/output_set.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "tools/drainsim/output_faults.h"

namespace drainsim::cli {

namespace {

namespace fs = std::filesystem;

constexpr size_t kWriteChunkBytes = size_t{1} << 20;

base::Failure Why(const std::string& what, const fs::path& path, int error) {
  return {what + " " + path.string() + ": " + std::strerror(error)};
}

// The words that say a rollback failed too, and the backups were kept (WriteSet keeps them).
constexpr const char* kRollbackFailed =
    "; restoring the earlier files failed too: they are kept in ";

// One file-system step: the test seam (output_faults.h) may fail it first. `call` returns < 0
// and sets errno on failure. With `always`, the call is made even when the seam fails the
// step, as a failing close(2) still releases the descriptor. Returns 0 or the errno.
template <typename Call>
int Step(Call call, bool always = false) {
  const int injected = output_faults::OutputStep();
  if (injected != 0 && !always) return injected;
  const int result = call() < 0 ? errno : 0;
  return injected != 0 ? injected : result;
}

// Blocks the termination signals a user sends for as long as it lives; a signal that arrived
// meanwhile is delivered when it ends (output_set.h, contract 4).
class SignalsDeferred {
 public:
  SignalsDeferred() {
    sigset_t set;
    sigemptyset(&set);
    for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&set, signal);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~SignalsDeferred() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  SignalsDeferred(const SignalsDeferred&) = delete;
  SignalsDeferred& operator=(const SignalsDeferred&) = delete;

 private:
  sigset_t old_;
};

int WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const size_t chunk = std::min(kWriteChunkBytes, text.size() - done);
    ssize_t written = 0;
    const int error = Step([&] { return written = write(fd, text.data() + done, chunk); });
    if (error == EINTR) continue;
    if (error != 0) return error;
    done += static_cast<size_t>(written);
  }
  return 0;
}

// Writes `file` whole into the staging directory: open, write, fsync, close.
base::Status StageFile(const fs::path& dir, const fs::path& staging,
                       const reports::OutputFile& file) {
  const fs::path path = staging / file.name;
  int fd = -1;
  int error =
      Step([&] { return fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666); });
  if (error != 0) return Why("cannot write", dir / file.name, error);
  error = WriteAll(fd, file.text);
  if (error == 0) error = Step([&] { return fsync(fd); });
  if (error != 0) {
    close(fd);
    return Why("cannot write", dir / file.name, error);
  }
  error = Step([&] { return close(fd); }, /*always=*/true);
  if (error != 0) return Why("cannot write", dir / file.name, error);
  return {};
}

// One name's switch: its earlier file kept as a backup (a hard link, or moved when the file
// system has none), then the staged file renamed over it.
struct Switched {
  std::string name;
  enum class Backup { kNone, kLinked, kMoved } backup = Backup::kNone;
  bool placed = false;  // the new file is at DIR/NAME
};

base::Status SwitchOne(const fs::path& dir, const fs::path& staging, Switched& s) {
  const fs::path target = dir / s.name;
  const fs::path backup = staging / "old" / s.name;
  struct stat st;
  if (lstat(target.c_str(), &st) == 0) {
    int error = Step([&] { return link(target.c_str(), backup.c_str()); });
    if (error == 0) {
      s.backup = Switched::Backup::kLinked;
    } else if (error == EPERM || error == EOPNOTSUPP) {
      error = Step([&] { return rename(target.c_str(), backup.c_str()); });
      if (error == 0) s.backup = Switched::Backup::kMoved;
    }
    if (error != 0) return Why("cannot keep the earlier", target, error);
  }
  const fs::path staged = staging / s.name;
  const int error = Step([&] { return rename(staged.c_str(), target.c_str()); });
  if (error != 0) return Why("cannot replace", target, error);
  s.placed = true;
  return {};
}

// Puts every switched name back as it was. False when a step of the rollback fails.
bool Rollback(const fs::path& dir, const fs::path& staging, const std::vector<Switched>& done) {
  bool ok = true;
  for (auto it = done.rbegin(); it != done.rend(); ++it) {
    const fs::path target = dir / it->name;
    const fs::path backup = staging / "old" / it->name;
    if (it->backup != Switched::Backup::kNone) {
      if (it->placed || it->backup == Switched::Backup::kMoved) {
        ok = rename(backup.c_str(), target.c_str()) == 0 && ok;
      }
    } else if (it->placed) {
      ok = unlink(target.c_str()) == 0 && ok;
    }
  }
  return ok;
}

int SyncDirectory(const fs::path& dir) {
  const int error = Step([&] {
    const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    const int result = fsync(fd);
    const int saved = errno;
    close(fd);
    errno = saved;
    return result;
  });
  return error == EINVAL ? 0 : error;  // a file system that cannot sync a directory
}

// The switch of every name, rolled back as a whole when a step fails.
base::Status SwitchAll(const fs::path& dir, const fs::path& staging,
                       const std::vector<reports::OutputFile>& files) {
  const fs::path old_dir = staging / "old";
  if (const int error = Step([&] { return mkdir(old_dir.c_str(), 0700); }); error != 0) {
    return Why("cannot create", old_dir, error);
  }
  std::vector<Switched> done;
  base::Status status;
  for (const reports::OutputFile& file : files) {
    done.push_back(Switched{file.name});
    status = SwitchOne(dir, staging, done.back());
    if (!status) break;
  }
  if (status) {
    if (const int e = SyncDirectory(dir); e != 0) status = Why("cannot sync", dir, e);
  }
  if (status) return {};
  if (!Rollback(dir, staging, done)) {
    return base::Failure{status.error() + kRollbackFailed + old_dir.string()};
  }
  return status;
}

base::Status WriteSet(const fs::path& dir, const std::vector<reports::OutputFile>& files) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return base::Failure{"cannot create " + dir.string() + ": " + ec.message()};
  for (const reports::OutputFile& file : files) {
    struct stat st;
    if (lstat((dir / file.name).c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      return Why("cannot replace", dir / file.name, EISDIR);
    }
  }
  std::string templ = (dir / ".drainsim-staging-XXXXXX").string();
  if (const int error = Step([&] { return mkdtemp(templ.data()) == nullptr ? -1 : 0; });
      error != 0) {
    return Why("cannot create a staging directory in", dir, error);
  }
  const fs::path staging = templ;
  base::Status status;
  for (const reports::OutputFile& file : files) {
    status = StageFile(dir, staging, file);
    if (!status) break;
  }
  if (status) status = SwitchAll(dir, staging, files);
  // After a failed rollback the backups are the only copy of the earlier files: keep them.
  if (status || status.error().find(kRollbackFailed) == std::string::npos) {
    fs::remove_all(staging, ec);
  }
  return status;
}

}  // namespace

base::Status WriteOutputSet(const std::string& dir, const std::vector<reports::OutputFile>& files) {
  const SignalsDeferred deferred;
  return WriteSet(fs::path(dir), files);
}

}  // namespace drainsim::cli
