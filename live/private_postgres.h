// A private PostgreSQL server for `drainsim live`: a fresh cluster in a scratch directory,
// listening on 127.0.0.1 only, on a free port, stopped and deleted at the end.
//
// How (PostgreSQL 15 documentation, "Creating a Database Cluster" and "Starting the Database
// Server", https://www.postgresql.org/docs/15/creating-cluster.html and server-start.html; the
// options are those of https://www.postgresql.org/docs/15/app-initdb.html and app-postgres.html):
//   initdb -D DIR/pg/data -U drainsim -A trust -E UTF8 --locale=C --no-sync
//   postgres -D DIR/pg/data -p PORT -c listen_addresses=127.0.0.1
//            -c unix_socket_directories=DIR/pg -c max_connections=N -c fsync=off ...
// run directly (not through pg_ctl, which daemonizes) so that the postmaster is our child: it
// gets SIGINT (fast shutdown) at the end and the parent-death signal if drainsim dies.
// PostgreSQL refuses to run as root ("root execution of the PostgreSQL server is not
// permitted"): as root it runs as the `postgres` user that Debian's package creates.
//
// Contract:
//  (1) Launch() runs initdb and spawns the server, on the calling thread: the parent-death
//      signal is tied to the thread that forked (prctl(2)), so that thread must live as long as
//      the server (the main thread, in practice). WaitReady() (any thread) succeeds once the
//      server answers PQping (PQPING_OK) on conninfo(). On a failure nothing of it is left
//      running once the object is destroyed.
//  (2) Stop() (or the destructor) ends every process of it; the ScratchDir removes its files.
//  (3) Durability is off (fsync, full_page_writes, synchronous_commit): a throwaway database,
//      whose commits are cheaper than a production server's (docs/LIVE.md).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "live/local_ports.h"
#include "live/process.h"
#include "sim/base/expected.h"

namespace drainsim::live {

class PrivatePostgres {
 public:
  // `cpus`: the CPUs the server and its backends may run on (--db-cpus); empty: any.
  static base::Expected<std::unique_ptr<PrivatePostgres>> Launch(const ScratchDir& dir,
                                                                 int max_connections,
                                                                 const std::vector<int>& cpus = {});
  base::Status WaitReady(std::chrono::milliseconds timeout);
  ~PrivatePostgres() { Stop(); }

  // libpq connection string: host=127.0.0.1 port=P user=drainsim dbname=postgres
  const std::string& conninfo() const { return conninfo_; }
  int port() const { return port_; }
  pid_t pid() const { return server_.pid(); }
  const std::string& version() const { return version_; }  // "15.18" (from postgres --version)
  const std::string& log_path() const { return log_path_; }
  void Stop();

 private:
  PrivatePostgres() = default;
  Child server_;
  std::string conninfo_;
  std::string version_;
  std::string log_path_;
  int port_ = 0;
};

// The directory holding initdb and postgres: $DRAINSIM_PG_BINDIR, else the newest
// /usr/lib/postgresql/VERSION/bin (Debian's layout); "" when there is none.
std::string PostgresBinDir();

}  // namespace drainsim::live
