// The broker and the database a live run talks to: private ones started for the run (the
// default), or existing ones given by URL (a staging broker), in which case nothing is started
// and the run only declares and deletes its own uniquely named queues and tables.
//
// Contract:
//  (1) Start() brings up what is needed in parallel and waits until both answer (AMQP login,
//      PQping), at most `ready_timeout`; it fails (naming the service that could not start)
//      if either cannot start, and then nothing it started is left running.
//  (2) The destructor stops the private services (RabbitMQ, epmd, PostgreSQL) and removes their
//      scratch directory: on the normal path, after a failure, and after Ctrl-C/SIGTERM (the
//      caller's loops see StopRequested() and return here).
//  (3) start_s() is the wall time from Start() to both ready (the ≤ 30 s bar of issue 14).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "live/local_ports.h"
#include "live/private_postgres.h"
#include "live/private_rabbitmq.h"
#include "sim/base/expected.h"

namespace drainsim::live {

struct ServiceOptions {
  std::string amqp_url;      // empty: start a private RabbitMQ; "-": no broker (--db-curve)
  std::string postgres_url;  // empty: start a private PostgreSQL; "-": no database needed
  int max_connections = 20;  // the private PostgreSQL's pool needs
  std::chrono::milliseconds ready_timeout{60000};
  bool keep_data = false;  // leave the scratch directory (for debugging a failed start)
  // The private RabbitMQ's consumer_timeout (a scenario with ack_loss: live/fault_plan.h);
  // nullopt: RabbitMQ's default (30 minutes). Not applied to a broker given by --amqp.
  std::optional<int64_t> consumer_timeout_ms;
  // The CPUs the private PostgreSQL is pinned to (--db-cpus, live/db_cpu.h); empty: any.
  std::vector<int> postgres_cpus;
};

class Services {
 public:
  static base::Expected<std::unique_ptr<Services>> Start(const ServiceOptions& options);
  ~Services();

  const std::string& amqp_url() const { return amqp_url_; }
  const std::string& postgres_url() const { return postgres_url_; }  // "" without a database
  bool private_rabbitmq() const { return rabbit_ != nullptr; }
  bool private_postgres() const { return pg_ != nullptr; }
  const PrivateRabbitMq* rabbit() const { return rabbit_.get(); }
  const PrivatePostgres* postgres() const { return pg_.get(); }
  double start_s() const { return start_s_; }
  double rabbit_ready_s() const { return rabbit_ready_s_; }
  double postgres_ready_s() const { return pg_ready_s_; }
  const std::string& scratch() const { return scratch_ ? scratch_->path() : empty_; }
  // Stops everything now (also done by the destructor); returns the wall seconds it took.
  double Stop();

 private:
  Services() = default;
  std::optional<ScratchDir> scratch_;
  std::unique_ptr<PrivateRabbitMq> rabbit_;
  std::unique_ptr<PrivatePostgres> pg_;
  std::string amqp_url_;
  std::string postgres_url_;
  std::string empty_;
  double start_s_ = 0;
  double rabbit_ready_s_ = 0;
  double pg_ready_s_ = 0;
};

}  // namespace drainsim::live
