// The handlers' database: a pool of libpq connections (limit: `database.connections`), each with
// statement_timeout = database.timeout_ms, and the run's own two tables.
//
// Tables (names carry the run id, so that runs against a shared server never meet):
//   RUN_claims     (key text PRIMARY KEY, message_id bigint)           claim rows
//   RUN_executions (key text, message_id bigint, attempt int, worker int,
//                   committed_at timestamptz DEFAULT clock_timestamp())  one row per commit
// A key with two executions rows ran twice: the duplicate executions live, found in the
// database rather than inferred. With a db_slowdown (live/db_faults.h), CreateSlowdown() adds
//   RUN_slowdown   (factor double precision)  one row: the database's current slowdown factor
//   RUN_work(s double precision)             sleeps s x that factor, read at the statement's start
//
// The pool holds `size` connections, of which at most limit() are checked out at once: a
// db_connections fault changes the limit (SetLimit), the connections stay open.
//
// Contract:
//  (1) Acquire() waits at most `wait` for a free connection while fewer than limit() are out
//      (the pool is the contention the scenario's database.connections describes), first come
//      first served (the model's FIFO: a waiter is served only after every earlier one was, or
//      gave up at its deadline); Release() returns it. A connection that failed (not
//      CONNECTION_OK) is reconnected on release.
//  (2) CreateTables() / DropTables() touch only the run's tables.
//  (3) SetLimit(n) applies to checkouts from then on: lowering it never takes a connection back
//      (those out finish their work), raising it wakes the waiters. 1 <= limit <= size.
//
// Thread-safety: Acquire/Release/SetLimit from any thread; a PGconn is used by the thread holding
// it.
#pragma once

#include <libpq-fe.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "live/db_work_meter.h"
#include "sim/base/expected.h"

namespace drainsim::live {

// What CountDuplicates() found in the executions table.
struct DuplicateCounts {
  int64_t keys = 0;              // keys with more than one executions row
  int64_t extra_executions = 0;  // the rows beyond the first of each key
  int64_t executions = 0;        // all rows
};

class PgPool {
 public:
  // Opens `size` connections to `conninfo` with statement_timeout `timeout_ms`.
  static base::Expected<std::unique_ptr<PgPool>> Open(const std::string& conninfo, int size,
                                                      int64_t timeout_ms,
                                                      const std::string& run_id);
  ~PgPool();

  PGconn* Acquire(std::chrono::milliseconds wait);  // nullptr: none free in time
  void Release(PGconn* conn);
  // REQUIRES: 1 <= limit <= the size opened.
  void SetLimit(int limit);
  int limit() const;
  // Every connection's backend pid (PQbackendPID; 0 for a connection that is down), in opening
  // order: whose CPU time the run's statements cost (live/db_cpu.h).
  std::vector<int> BackendPids() const;
  const std::string& claims_table() const { return claims_; }
  const std::string& executions_table() const { return executions_; }
  const std::string& server_version() const { return version_; }
  const std::string& slowdown_table() const { return slowdown_; }  // "" without a db_slowdown

  base::Status CreateTables();
  base::Status DropTables();  // and the slowdown's table and function, if created
  // The slowdown's table (factor 1) and function; from then on SleepSql() calls the function.
  // REQUIRES: no other thread uses the pool yet.
  base::Status CreateSlowdown();
  // The statement that holds the server `us` microseconds (x the factor, after CreateSlowdown).
  std::string SleepSql(int64_t us) const;
  // --db-work cpu (live/db_cpu.h): from then on SleepSql() calls `function` (which burns server
  // CPU, x the slowdown factor when there is one), and DropTables() runs `drop_sql` first.
  // REQUIRES: no other thread uses the pool yet.
  void UseWorkFunction(const std::string& function, const std::string& drop_sql);
  // Runs `prefix` + SleepSql(us) on `conn` (checked out), timed into meter().
  base::Status RunWork(PGconn* conn, int64_t us, const std::string& prefix);
  DbWorkMeter& meter() { return meter_; }
  // The statement that sets the slowdown factor. REQUIRES: CreateSlowdown() succeeded.
  std::string SetFactorSql(double factor) const;
  // Keys with more than one executions row, and the number of extra executions.
  base::Expected<DuplicateCounts> CountDuplicates();

 private:
  PgPool() = default;
  base::Status Exec(const std::string& sql);
  // Acquire(), and a reconnect if the connection turns out dead (the run's own statements).
  PGconn* AcquireChecked(std::chrono::milliseconds wait);
  std::string conninfo_;
  std::string run_id_;
  std::string claims_;
  std::string executions_;
  std::string slowdown_;  // the run's slowdown table ("" until CreateSlowdown)
  std::string work_;      // ... and function
  std::string cpu_work_;  // UseWorkFunction's function ("" : none) ...
  std::string cpu_drop_;  // ... and how to drop it
  DbWorkMeter meter_;
  std::string version_;
  mutable std::mutex mu_;
  int limit_ = 0;
  int out_ = 0;  // checked out
  uint64_t next_ticket_ = 0;
  std::deque<uint64_t> line_;  // the waiters' tickets, in arrival order
  std::condition_variable cv_;
  std::vector<PGconn*> free_;
  std::vector<PGconn*> all_;
};

// Runs `sql` on `conn`: the rows it changed or returned (PQcmdTuples, else PQntuples; a claim's
// INSERT ... ON CONFLICT DO NOTHING reads 0 when the key was taken), or the failure as
// "SQLSTATE the server's message" (which PgTimedOut reads). The count is the value rather than
// an out-parameter: it is there exactly when the statement succeeded.
base::Expected<int64_t> PgExec(PGconn* conn, const std::string& sql);
// The SQLSTATE of the failure `error` (PgExec's) is query_canceled (57014): a statement timeout.
bool PgTimedOut(const std::string& error);

}  // namespace drainsim::live
