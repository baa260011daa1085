// live-events.jsonl: every publish, confirm, delivery, attempt, commit, ack, reject, park and
// dead letter of a live run, one JSON object per line, with its wall time.
//
// Contract:
//  (1) One line per Write(), written whole (a mutex), in the order the writes happened.
//  (2) `t_s` is seconds since the run's start on the monotonic clock, microsecond resolution:
//      since construction until SetStart() moves it to the plan's time 0 (the instant the
//      producer starts the plan, after the topology is declared), so that a live instant and
//      the simulation's instant of the same thing are counted from the same origin;
//      the start's UTC time is in live.json (`started_at_utc`). Wall time never reaches sim/ or
//      reports/: it lives in these files only.
//  (3) Fields: {"t_s", "event", "id"} always ("id" null for kNoMessage: a worker's crash,
//      restart or closed channel); "worker", "attempt", "detail" when given.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

namespace drainsim::live {

class EventLog {
 public:
  // Opens `path` for writing; ok() false if it cannot.
  explicit EventLog(const std::string& path);
  ~EventLog();
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  static constexpr uint64_t kNoMessage = UINT64_MAX;

  bool ok() const { return file_ != nullptr; }
  double Now() const;  // seconds since the start (construction, or SetStart)
  // Moves the origin of Now() and `t_s`. REQUIRES: no other thread uses the log yet.
  void SetStart(std::chrono::steady_clock::time_point start) { start_ = start; }
  // worker/attempt < 0: not written. `detail` must be plain ASCII without quotes or backslashes.
  void Write(const char* event, uint64_t id, int worker = -1, int attempt = -1,
             const std::string& detail = "");
  void Flush();

 private:
  std::FILE* file_ = nullptr;
  std::mutex mu_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace drainsim::live
