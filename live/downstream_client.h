// The live handler's HTTP/1.1 client for the downstream API (live/downstream_server.h): one
// keep-alive connection to 127.0.0.1:port, opened on the first call and again whenever the
// server closed it. No library: it sends DownstreamRequest() heads and reads the status line and
// the headers it needs (Retry-After, Content-Length, Connection).
//
// Contract:
//  (1) Call() returns the answer's status (200, 429, 503, 400) or 0 with `error` when no answer
//      came within `timeout` (or a stop), after at most one reconnect: a kept-alive connection
//      the server closed meanwhile is opened again and the request sent again once.
//  (2) Every wait is bounded: poll() steps of 100 ms, each watching StopRequested().
//  (3) RetryAfterWaitUs() reads a Retry-After value the way the model's client does
//      (sim/model/retry_after.h): delay-seconds N waits N s; an IMF-fixdate D waits
//      max(0, D - now) with both on the run's clock, whose epoch is epoch_utc_s
//      (live/downstream_api.h); nullopt for anything else (the client then uses its backoff).
//
// Thread-safety: one client per thread (a worker slot's).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "sim/base/expected.h"

namespace drainsim::live {

struct HttpAnswer {
  int status = 0;           // 0: no answer (error says why)
  std::string retry_after;  // the header's value, "" without one
  std::string error;
};

class DownstreamClient {
 public:
  explicit DownstreamClient(int port) : port_(port) {}
  ~DownstreamClient() { Close(); }
  DownstreamClient(const DownstreamClient&) = delete;
  DownstreamClient& operator=(const DownstreamClient&) = delete;

  HttpAnswer Call(const std::string& request, std::chrono::milliseconds timeout);
  int port() const { return port_; }
  int64_t connects() const { return connects_; }

 private:
  base::Status Connect();
  void Close();
  // One try on the current connection; *retry set when it failed before any byte came back.
  HttpAnswer Try(const std::string& request, std::chrono::steady_clock::time_point deadline,
                 bool* retry);

  int port_;
  int fd_ = -1;
  int64_t connects_ = 0;
};

std::optional<int64_t> RetryAfterWaitUs(const std::string& value, int64_t now_us,
                                        int64_t epoch_utc_s);

}  // namespace drainsim::live
