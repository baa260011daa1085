#include "live/pg_pool.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "sim/base/check.h"

namespace drainsim::live {

namespace {

base::Expected<PGconn*> Connect(const std::string& conninfo, int64_t timeout_ms) {
  // statement_timeout for every statement of this connection (PostgreSQL 15 "Client Connection
  // Defaults", https://www.postgresql.org/docs/15/runtime-config-client.html), set as a startup
  // option so that no statement runs without it.
  const std::string ms = std::to_string(timeout_ms);
  const bool url = conninfo.rfind("postgres://", 0) == 0 || conninfo.rfind("postgresql://", 0) == 0;
  const std::string full = url ? conninfo + (conninfo.find('?') == std::string::npos ? "?" : "&") +
                                     "options=-c%20statement_timeout%3D" + ms
                               : conninfo + " options='-c statement_timeout=" + ms + "'";
  PGconn* conn = PQconnectdb(full.c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    const std::string why = std::string("cannot connect to PostgreSQL: ") + PQerrorMessage(conn);
    PQfinish(conn);
    return base::Failure{why};
  }
  return conn;
}

}  // namespace

base::Expected<int64_t> PgExec(PGconn* conn, const std::string& sql) {
  PGresult* res = PQexec(conn, sql.c_str());
  const ExecStatusType status = PQresultStatus(res);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    const char* state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    std::string error =
        std::string(state != nullptr ? state : "?????") + " " + PQerrorMessage(conn);
    while (!error.empty() && (error.back() == '\n' || error.back() == ' ')) error.pop_back();
    PQclear(res);
    return base::Failure{std::move(error)};
  }
  const char* tuples = PQcmdTuples(res);
  const int64_t rows = (tuples != nullptr && *tuples != '\0') ? std::atoll(tuples) : PQntuples(res);
  PQclear(res);
  return rows;
}

bool PgTimedOut(const std::string& error) { return error.rfind("57014", 0) == 0; }

base::Expected<std::unique_ptr<PgPool>> PgPool::Open(const std::string& conninfo, int size,
                                                     int64_t timeout_ms,
                                                     const std::string& run_id) {
  std::unique_ptr<PgPool> pool(new PgPool());
  pool->conninfo_ = conninfo;
  pool->run_id_ = run_id;
  pool->claims_ = run_id + "_claims";
  pool->executions_ = run_id + "_executions";
  for (int i = 0; i < size; ++i) {
    const base::Expected<PGconn*> conn = Connect(conninfo, timeout_ms);
    if (!conn) return base::Failure{conn.error()};  // ~PgPool closes those already open
    pool->all_.push_back(*conn);
    pool->free_.push_back(*conn);
  }
  pool->limit_ = size;
  if (!pool->all_.empty()) {
    const char* v = PQparameterStatus(pool->all_.front(), "server_version");
    pool->version_ = v != nullptr ? v : "";
  }
  return pool;
}

PgPool::~PgPool() {
  for (PGconn* conn : all_) PQfinish(conn);
}

PGconn* PgPool::Acquire(std::chrono::milliseconds wait) {
  std::unique_lock<std::mutex> lock(mu_);
  // First come, first served, as the model's queue: a waiter takes a connection only when every
  // earlier one has (or has given up at its deadline).
  const uint64_t ticket = next_ticket_++;
  line_.push_back(ticket);
  const bool got = cv_.wait_for(
      lock, wait, [&] { return line_.front() == ticket && !free_.empty() && out_ < limit_; });
  if (!got) {
    line_.erase(std::find(line_.begin(), line_.end(), ticket));
    lock.unlock();
    cv_.notify_all();  // the one behind may be next now
    return nullptr;
  }
  line_.pop_front();
  PGconn* conn = free_.back();
  free_.pop_back();
  ++out_;
  lock.unlock();
  cv_.notify_all();  // the next in line, if another connection is free
  return conn;
}

void PgPool::Release(PGconn* conn) {
  if (PQstatus(conn) != CONNECTION_OK) PQreset(conn);
  {
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(conn);
    --out_;
  }
  cv_.notify_all();  // the waiter at the front of the line, whichever thread it is
}

void PgPool::SetLimit(int limit) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    DRAINSIM_CHECK(limit >= 1 && static_cast<size_t>(limit) <= all_.size());
    limit_ = limit;
  }
  cv_.notify_all();
}

std::vector<int> PgPool::BackendPids() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<int> pids;
  for (PGconn* conn : all_) pids.push_back(PQbackendPID(conn));
  return pids;
}

int PgPool::limit() const {
  std::lock_guard<std::mutex> lock(mu_);
  return limit_;
}

PGconn* PgPool::AcquireChecked(std::chrono::milliseconds wait) {
  PGconn* conn = Acquire(wait);
  // libpq learns that a backend was ended (a db_outage) only when it uses the connection.
  if (conn != nullptr && !PgExec(conn, "SELECT 1")) PQreset(conn);
  return conn;
}

base::Status PgPool::Exec(const std::string& sql) {
  PGconn* conn = AcquireChecked(std::chrono::seconds(30));
  if (conn == nullptr) return base::Failure{"no database connection free in 30 s"};
  const base::Expected<int64_t> done = PgExec(conn, sql);
  Release(conn);
  if (!done) return base::Failure{done.error()};
  return {};
}

base::Status PgPool::CreateTables() {
  if (base::Status claims =
          Exec("CREATE TABLE " + claims_ + " (key text PRIMARY KEY, message_id bigint NOT NULL)");
      !claims) {
    return claims;
  }
  return Exec("CREATE TABLE " + executions_ +
              " (key text NOT NULL, message_id bigint NOT NULL, attempt int NOT NULL, worker "
              "int NOT NULL, committed_at timestamptz NOT NULL DEFAULT clock_timestamp())");
}

base::Status PgPool::DropTables() {
  if (!cpu_drop_.empty()) {
    if (base::Status dropped = Exec(cpu_drop_); !dropped) return dropped;
  }
  if (!slowdown_.empty()) {
    if (base::Status dropped = Exec("DROP FUNCTION IF EXISTS " + work_ + "(double precision); " +
                                    "DROP TABLE IF EXISTS " + slowdown_);
        !dropped) {
      return dropped;
    }
  }
  return Exec("DROP TABLE IF EXISTS " + claims_ + ", " + executions_);
}

base::Status PgPool::CreateSlowdown() {
  const std::string table = run_id_ + "_slowdown";
  const std::string work = run_id_ + "_work";
  // LANGUAGE sql, VOLATILE (the default): the factor is read when the statement runs, with the
  // statement's snapshot (READ COMMITTED: a new one per statement), so a change applies to the
  // statements that start after it and never to one already sleeping, as the model's service
  // time is fixed at its start (sim/model/database.cc, StartWaiting).
  if (base::Status created =
          Exec("CREATE TABLE " + table + " (factor double precision NOT NULL); INSERT INTO " +
               table + " VALUES (1)");
      !created) {
    return created;
  }
  if (base::Status created =
          Exec("CREATE FUNCTION " + work + "(s double precision) RETURNS void LANGUAGE sql AS " +
               "$$ SELECT pg_sleep(s * (SELECT factor FROM " + table + ")) $$");
      !created) {
    return created;
  }
  slowdown_ = table;
  work_ = work;
  return {};
}

std::string PgPool::SleepSql(int64_t us) const {
  char sql[160];
  const std::string& fn = !cpu_work_.empty() ? cpu_work_ : work_;
  std::snprintf(sql, sizeof sql, "SELECT %s(%.6f)", fn.empty() ? "pg_sleep" : fn.c_str(),
                static_cast<double>(us) / 1e6);
  return sql;
}

void PgPool::UseWorkFunction(const std::string& function, const std::string& drop_sql) {
  cpu_work_ = function;
  cpu_drop_ = drop_sql;
}

base::Status PgPool::RunWork(PGconn* conn, int64_t us, const std::string& prefix) {
  int waiting = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    waiting = static_cast<int>(line_.size());
  }
  const std::string sql = prefix + SleepSql(us);
  const DbWorkMeter::Begun begun = meter_.Start(waiting);
  const auto start = std::chrono::steady_clock::now();
  const base::Expected<int64_t> done = PgExec(conn, sql);
  const int64_t took_us = std::chrono::duration_cast<std::chrono::microseconds>(
                              std::chrono::steady_clock::now() - start)
                              .count();
  meter_.Finish(begun, us, took_us, done.ok());
  if (!done) return base::Failure{done.error()};
  return {};
}

std::string PgPool::SetFactorSql(double factor) const {
  char sql[160];
  std::snprintf(sql, sizeof sql, "UPDATE %s SET factor = %.17g", slowdown_.c_str(), factor);
  return sql;
}

base::Expected<DuplicateCounts> PgPool::CountDuplicates() {
  PGconn* conn = AcquireChecked(std::chrono::seconds(30));
  if (conn == nullptr) return base::Failure{"no database connection free in 30 s"};
  const std::string sql =
      "SELECT count(*) FILTER (WHERE n > 1), coalesce(sum(n - 1), 0), "
      "coalesce(sum(n), 0) FROM (SELECT count(*) AS n FROM " +
      executions_ + " GROUP BY key) AS per_key";
  PGresult* res = PQexec(conn, sql.c_str());
  const bool ok = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;
  DuplicateCounts counts;
  std::string error;
  if (ok) {
    counts.keys = std::atoll(PQgetvalue(res, 0, 0));
    counts.extra_executions = std::atoll(PQgetvalue(res, 0, 1));
    counts.executions = std::atoll(PQgetvalue(res, 0, 2));
  } else {
    error = PQerrorMessage(conn);
  }
  PQclear(res);
  Release(conn);
  if (!ok) return base::Failure{std::move(error)};
  return counts;
}

}  // namespace drainsim::live
