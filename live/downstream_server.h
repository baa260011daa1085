// The in-process HTTP/1.1 server a live run's handlers call as the scenario's downstream API
// (live/downstream_api.h decides each answer). Loopback only, its own threads, no library.
//
// The one request form it serves (what live/downstream_client.h sends):
//   GET /call?id=ID&attempt=A&n=N HTTP/1.1\r\n  (headers, ignored but for Connection:
//   close)\r\n\r\n
// answered `HTTP/1.1 200 OK`, `429 Too Many Requests` (with `Retry-After` when the scenario's
// style has one) or `503 Service Unavailable`, `Content-Length: 0`, keep-alive. Anything else
// (another method or path, a missing field, a body, a request head over kRequestBytesMax) is
// answered `400 Bad Request` and the connection closed, since its framing cannot be trusted.
//
// Contract:
//  (1) It listens on 127.0.0.1 on a port the kernel chose (port() after Start()).
//  (2) At most `connections_max` connections are served at once; one over that is closed at
//      once, unanswered. One thread accepts; each connection has a thread of its own; finished
//      ones are joined as new ones arrive, and Stop() (or the destructor) joins every thread.
//  (3) Every wait is bounded: each poll() 100 ms, so Stop() returns within about 100 ms plus a
//      call's remaining duration cut into 50 ms sleeps that also watch the stop.
//  (4) The clock is the run's: steady time since SetStart() (before it, instant 0).
//  (5) Counters (requests by status, connections accepted and refused) are exact at Stop().
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "live/downstream_api.h"
#include "sim/base/expected.h"

namespace drainsim::live {

struct DownstreamServerCounts {
  int64_t ok_200 = 0, rate_limited_429 = 0, unavailable_503 = 0, bad_400 = 0;
  int64_t connections = 0, connections_refused = 0;
};

class DownstreamServer {
 public:
  static constexpr size_t kRequestBytesMax = 4096;

  // REQUIRES: scenario.downstream is set; connections_max >= 1
  DownstreamServer(const config::Scenario& scenario, uint64_t seed, int connections_max);
  DownstreamServer(config::Scenario&&, uint64_t, int) = delete;  // it keeps a reference
  ~DownstreamServer();
  DownstreamServer(const DownstreamServer&) = delete;
  DownstreamServer& operator=(const DownstreamServer&) = delete;

  // Binds and starts accepting, or says why it cannot.
  base::Status Start();
  // The run's time 0 (EventLog::SetStart's). Call before the first request that matters.
  void SetStart(std::chrono::steady_clock::time_point start);
  void Stop();

  int port() const { return port_; }
  int64_t epoch_utc_s() const { return epoch_utc_s_; }
  DownstreamServerCounts counts() const;

 private:
  struct Connection {
    int fd = -1;
    std::thread thread;
    std::atomic<bool> done{false};
  };
  void AcceptLoop();
  void Serve(Connection* c);
  // Answers one request head; false when the connection must close afterwards.
  bool Answer(int fd, const std::string& head);
  engine::Instant Now() const;
  void Reap(bool all);

  int64_t epoch_utc_s_;
  DownstreamApi api_;
  std::mutex api_mu_;
  int connections_max_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<int64_t> start_ns_{0};  // steady_clock ticks of the run's time 0
  std::atomic<bool> stop_{false};
  std::thread acceptor_;
  std::list<std::unique_ptr<Connection>> connections_;  // the acceptor's until Stop()
  std::atomic<int64_t> ok_{0}, limited_{0}, unavailable_{0}, bad_{0}, accepted_{0}, refused_{0};
};

// The request head for call `call` of attempt `attempt` of message `id`.
std::string DownstreamRequest(uint64_t id, int attempt, int call);

}  // namespace drainsim::live
