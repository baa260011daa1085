// Loopback ports and scratch directories for the private brokers.
//
// Contract:
//  (1) Every address is 127.0.0.1: nothing here listens on or connects to anything else.
//  (2) FreeLoopbackPort() returns a port that was free when asked (bound to port 0, the kernel's
//      choice, then released). Another process could take it before the broker binds it; the
//      broker then fails to start, which is reported, never hidden.
//  (3) ScratchDir removes its directory tree when destroyed (unless Keep()).
#pragma once

#include <chrono>
#include <string>
#include <utility>

#include "sim/base/expected.h"

namespace drainsim::live {

// 0 if no port could be had.
int FreeLoopbackPort();

// True if a TCP connection to 127.0.0.1:port succeeds within `timeout`.
bool LoopbackPortOpen(int port, std::chrono::milliseconds timeout);

class ScratchDir {
 public:
  // mkdtemp under $TMPDIR (default /tmp), "drainsim-live-XXXXXX", mode 0755 so that the
  // services' users can reach their own subdirectories (which are 0700 and theirs).
  static base::Expected<ScratchDir> Create();
  // A moved-from ScratchDir owns nothing (path() empty) and removes nothing.
  ScratchDir(ScratchDir&& other) noexcept;
  ScratchDir& operator=(ScratchDir&& other) noexcept;
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir();

  const std::string& path() const { return path_; }
  // Creates path()/name owned by `user` (empty: the current user), mode 0700.
  base::Status MakeSubdir(const std::string& name, const std::string& user) const;
  // Writes path()/name (owned by `user`, mode 0644).
  base::Status WriteFile(const std::string& name, const std::string& text,
                         const std::string& user) const;
  void Keep() { keep_ = true; }

 private:
  explicit ScratchDir(std::string path) : path_(std::move(path)) {}
  void Remove();
  std::string path_;
  bool keep_ = false;
};

}  // namespace drainsim::live
