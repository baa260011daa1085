#include "live/local_ports.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace drainsim::live {

namespace {

sockaddr_in Loopback(int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return addr;
}

base::Status Chown(const std::string& path, const std::string& user) {
  if (user.empty()) return {};
  const passwd* pw = getpwnam(user.c_str());
  if (pw == nullptr) return base::Failure{"no user '" + user + "' on this machine"};
  if (chown(path.c_str(), pw->pw_uid, pw->pw_gid) != 0 && pw->pw_uid != geteuid()) {
    return base::Failure{"cannot give " + path + " to " + user + ": " + std::strerror(errno)};
  }
  return {};
}

}  // namespace

int FreeLoopbackPort() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in addr = Loopback(0);
  int port = 0;
  socklen_t len = sizeof addr;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

bool LoopbackPortOpen(int port, std::chrono::milliseconds timeout) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return false;
  sockaddr_in addr = Loopback(port);
  bool open = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  if (!open && errno == EINPROGRESS) {
    pollfd pfd{fd, POLLOUT, 0};
    if (poll(&pfd, 1, static_cast<int>(timeout.count())) == 1) {
      int err = 0;
      socklen_t len = sizeof err;
      open = getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0;
    }
  }
  close(fd);
  return open;
}

base::Expected<ScratchDir> ScratchDir::Create() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/drainsim-live-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) {
    return base::Failure{"cannot create a directory like " + pattern + ": " + std::strerror(errno)};
  }
  ScratchDir dir(buf.data());
  chmod(dir.path_.c_str(), 0755);
  return dir;
}

ScratchDir::ScratchDir(ScratchDir&& other) noexcept
    : path_(std::exchange(other.path_, std::string())), keep_(other.keep_) {}

ScratchDir& ScratchDir::operator=(ScratchDir&& other) noexcept {
  if (this != &other) {
    Remove();
    path_ = std::exchange(other.path_, std::string());
    keep_ = other.keep_;
  }
  return *this;
}

ScratchDir::~ScratchDir() { Remove(); }

void ScratchDir::Remove() {
  if (path_.empty() || keep_) return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

base::Status ScratchDir::MakeSubdir(const std::string& name, const std::string& user) const {
  const std::string dir = path_ + "/" + name;
  if (mkdir(dir.c_str(), 0700) != 0) {
    return base::Failure{"cannot create " + dir + ": " + std::strerror(errno)};
  }
  return Chown(dir, user);
}

base::Status ScratchDir::WriteFile(const std::string& name, const std::string& text,
                                   const std::string& user) const {
  const std::string file = path_ + "/" + name;
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) return base::Failure{"cannot write " + file};
  }
  chmod(file.c_str(), 0644);
  return Chown(file, user);
}

}  // namespace drainsim::live
