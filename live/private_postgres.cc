#include "live/private_postgres.h"

#include <libpq-fe.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace drainsim::live {

namespace {

std::vector<std::string> BaseEnv() {
  return {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C", "LC_ALL=C", "TZ=UTC"};
}

// The user the server runs as: `postgres` when we are root (see the header), else ourselves.
std::string PostgresServerUser() { return geteuid() == 0 ? "postgres" : ""; }

std::string ReadVersion(const std::string& bindir) {
  // The bin directory's name carries the major version; the exact one is in the log's first
  // line, which we do not parse: "15" plus libpq's view of the server once connected is enough.
  const std::string parent = std::filesystem::path(bindir).parent_path().filename().string();
  return parent;
}

// initdb of a throw-away cluster in `data`: trust on loopback, user drainsim, no fsync.
base::Status InitDb(const std::string& bindir, const std::string& data, const std::string& home,
                    const std::string& user, const std::string& log_path) {
  ChildSpec init;
  init.argv = {bindir + "/initdb",
               "-D",
               data,
               "-U",
               "drainsim",
               "-A",
               "trust",
               "-E",
               "UTF8",
               "--locale=C",
               "--no-sync",
               "--no-instructions"};
  init.env = BaseEnv();
  init.env.push_back("HOME=" + home);
  init.run_as_user = user;
  init.log_path = log_path;
  init.cwd = home;
  init.death_signal = SIGKILL;
  const base::Expected<int> init_code = RunToCompletion(init, std::chrono::seconds(60));
  if (!init_code) return base::Failure{init_code.error()};
  if (*init_code != 0) {
    return base::Failure{"initdb failed (exit " + std::to_string(*init_code) + "); see its log"};
  }
  return {};
}

// The server on loopback `port` only, its socket in `home`, durability off (a rehearsal's
// database is thrown away), pinned to `cpus` when given.
ChildSpec ServerSpec(const std::string& bindir, const std::string& data, const std::string& home,
                     int port, int max_connections, const std::string& user,
                     const std::string& log_path, const std::vector<int>& cpus) {
  ChildSpec server;
  server.argv = {bindir + "/postgres",
                 "-D",
                 data,
                 "-p",
                 std::to_string(port),
                 "-c",
                 "listen_addresses=127.0.0.1",
                 "-c",
                 "unix_socket_directories=" + home,
                 "-c",
                 "max_connections=" + std::to_string(std::max(max_connections + 10, 20)),
                 "-c",
                 "fsync=off",
                 "-c",
                 "full_page_writes=off",
                 "-c",
                 "synchronous_commit=off",
                 "-c",
                 "logging_collector=off"};
  server.env = BaseEnv();
  server.env.push_back("HOME=" + home);
  server.run_as_user = user;
  server.log_path = log_path;
  server.cwd = home;
  server.death_signal = SIGINT;  // fast shutdown: roll back open transactions, then exit
  server.cpus = cpus;            // the backends are forked from it: they inherit the affinity
  return server;
}

}  // namespace

std::string PostgresBinDir() {
  if (const char* env = std::getenv("DRAINSIM_PG_BINDIR"); env != nullptr && *env != '\0') {
    return env;
  }
  std::string best;
  int best_major = -1;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
    const std::string name = entry.path().filename().string();
    const int major = std::atoi(name.c_str());
    if (major > best_major && std::filesystem::exists(entry.path() / "bin" / "postgres", ec)) {
      best_major = major;
      best = (entry.path() / "bin").string();
    }
  }
  return best;
}

base::Expected<std::unique_ptr<PrivatePostgres>> PrivatePostgres::Launch(
    const ScratchDir& dir, int max_connections, const std::vector<int>& cpus) {
  const std::string bindir = PostgresBinDir();
  if (bindir.empty()) {
    return base::Failure{
        "PostgreSQL server not installed (no /usr/lib/postgresql/*/bin/postgres; Debian: "
        "apt-get install postgresql)"};
  }
  const std::string user = PostgresServerUser();
  if (base::Status made = dir.MakeSubdir("pg", user); !made) return base::Failure{made.error()};
  std::unique_ptr<PrivatePostgres> pg(new PrivatePostgres());
  const std::string home = dir.path() + "/pg";
  const std::string data = home + "/data";
  pg->log_path_ = dir.path() + "/postgres.log";
  pg->version_ = ReadVersion(bindir);

  if (base::Status init = InitDb(bindir, data, home, user, pg->log_path_); !init) {
    return base::Failure{init.error()};
  }

  pg->port_ = FreeLoopbackPort();
  const ChildSpec server =
      ServerSpec(bindir, data, home, pg->port_, max_connections, user, pg->log_path_, cpus);
  base::Expected<Child> spawned = Child::Spawn(server);
  if (!spawned) return base::Failure{spawned.error()};
  pg->server_ = std::move(*spawned);

  pg->conninfo_ = "host=127.0.0.1 port=" + std::to_string(pg->port_) +
                  " user=drainsim dbname=postgres connect_timeout=5";
  return pg;
}

base::Status PrivatePostgres::WaitReady(std::chrono::milliseconds timeout) {
  return WaitUntilReady(server_, "PostgreSQL", log_path_, timeout, std::chrono::milliseconds(50),
                        [&] { return PQping(conninfo_.c_str()) == PQPING_OK; });
}

void PrivatePostgres::Stop() { server_.Stop(SIGINT, std::chrono::seconds(20)); }

}  // namespace drainsim::live
