// The handlers' database: a pool of `database.connections` libpq connections, each with
// statement_timeout = database.timeout_ms, and the run's own two tables.
//
// Tables (names carry the run id, so that runs against a shared server never meet):
//   RUN_claims     (key text PRIMARY KEY, message_id bigint)           claim rows
//   RUN_executions (key text, message_id bigint, attempt int, worker int,
//                   committed_at timestamptz DEFAULT clock_timestamp())  one row per commit
// A key with two executions rows ran twice: the duplicate executions live, found in the
// database rather than inferred.
//
// Contract:
//  (1) Acquire() waits at most `wait` for a free connection (the pool is the contention the
//      scenario's database.connections describes); Release() returns it. A connection that
//      failed (not CONNECTION_OK) is reconnected on release.
//  (2) CreateTables() / DropTables() touch only the run's tables.
//
// Thread-safety: Acquire/Release from any thread; a PGconn is used by the thread holding it.
#pragma once

#include <libpq-fe.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace drainsim::live {

class PgPool {
 public:
  // Opens `size` connections to `conninfo` with statement_timeout `timeout_ms`.
  static std::unique_ptr<PgPool> Open(const std::string& conninfo, int size, int64_t timeout_ms,
                                      const std::string& run_id, std::string* error);
  ~PgPool();

  PGconn* Acquire(std::chrono::milliseconds wait);  // nullptr: none free in time
  void Release(PGconn* conn);
  const std::string& claims_table() const { return claims_; }
  const std::string& executions_table() const { return executions_; }
  const std::string& server_version() const { return version_; }

  bool CreateTables(std::string* error);
  bool DropTables(std::string* error);
  // Keys with more than one executions row, and the number of extra executions.
  bool CountDuplicates(int64_t* keys, int64_t* extra_executions, int64_t* executions,
                       std::string* error);

 private:
  PgPool() = default;
  bool Exec(const std::string& sql, std::string* error);
  // Acquire(), and a reconnect if the connection turns out dead (the run's own statements).
  PGconn* AcquireChecked(std::chrono::milliseconds wait);
  std::string conninfo_;
  std::string claims_;
  std::string executions_;
  std::string version_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<PGconn*> free_;
  std::vector<PGconn*> all_;
};

// Runs `sql` on `conn`; false and *error (the server's message) unless it succeeded.
bool PgExec(PGconn* conn, const std::string& sql, std::string* error, int64_t* rows = nullptr);
// The SQLSTATE of the last failure was query_canceled (57014): a statement timeout.
bool PgTimedOut(const std::string& error);

}  // namespace drainsim::live
