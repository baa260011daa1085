#include "tools/drainsim/live_services_cli.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "live/amqp_connection.h"
#include "live/db_outage.h"
#include "live/stop_signal.h"
#include "sim/base/expected.h"
#include "tools/drainsim/cli.h"
#include "tools/drainsim/live_db_work.h"

namespace drainsim::cli {

namespace {

// "3.10.8" -> true when the broker counts every return towards x-delivery-limit (before 4.3).
bool CountsEveryReturn(const std::string& version) {
  int major = 0, minor = 0;
  std::sscanf(version.c_str(), "%d.%d", &major, &minor);
  return major < 4 || (major == 4 && minor < 3);
}

// The pids and ports of the private services, as soon as they are up (the tests read them).
void PrintServices(const live::Services& services) {
  if (const live::PrivateRabbitMq* mq = services.rabbit()) {
    std::printf("rabbitmq: pid %d port %d dist_port %d epmd pid %d port %d (ready in %.1f s)\n",
                mq->pid(), mq->port(), mq->dist_port(), mq->epmd_pid(), mq->epmd_port(),
                services.rabbit_ready_s());
  }
  if (const live::PrivatePostgres* pg = services.postgres()) {
    std::printf("postgres: pid %d port %d (ready in %.1f s)\n", pg->pid(), pg->port(),
                services.postgres_ready_s());
  }
  std::fflush(stdout);
}

// The scenario's delivery-limit counting must be the broker's (read from its server-properties):
// success when it is, else the problem at /broker/version.
base::Status CheckBrokerVersion(const config::Scenario& s, const std::string& amqp_url) {
  base::Expected<std::unique_ptr<live::AmqpConnection>> opened =
      live::AmqpConnection::Open(amqp_url, "drainsim live: version");
  if (!opened) return base::Failure{"cannot reach the broker: " + opened.error()};
  const std::unique_ptr<live::AmqpConnection>& probe = *opened;
  const bool scenario_counts_all = std::all_of(
      s.broker.delivery_counted.begin(), s.broker.delivery_counted.end(), [](bool b) { return b; });
  const bool broker_counts_all = CountsEveryReturn(probe->server_version());
  if (!s.broker.delivery_limit || scenario_counts_all == broker_counts_all) return {};
  return base::Failure{
      "/broker/version: the scenario's delivery limit counts " +
      std::string(scenario_counts_all ? "every return" : "only some returns") +
      ", but the broker is RabbitMQ " + probe->server_version() + ", which counts " +
      (broker_counts_all ? "every return (before 4.3)" : "basic.reject and crashes only (4.3+)")};
}

}  // namespace

int CheckServices(const live::ServiceOptions& options) {
  base::Expected<std::unique_ptr<live::Services>> started = live::Services::Start(options);
  if (!started) {
    std::fprintf(stderr, "drainsim live: %s\n", started.error().c_str());
    return kExitBadInput;
  }
  const std::unique_ptr<live::Services>& services = *started;
  const live::PrivateRabbitMq* mq = services->rabbit();
  const live::PrivatePostgres* pg = services->postgres();
  std::printf("services ready in %.3f s (RabbitMQ %.3f s, PostgreSQL %.3f s)\n",
              services->start_s(), services->rabbit_ready_s(), services->postgres_ready_s());
  if (mq) {
    std::printf("rabbitmq: pid %d port %d dist_port %d epmd pid %d port %d node %s\n", mq->pid(),
                mq->port(), mq->dist_port(), mq->epmd_pid(), mq->epmd_port(),
                mq->node_name().c_str());
  }
  if (pg) std::printf("postgres: pid %d port %d\n", pg->pid(), pg->port());
  std::printf("scratch: %s\n", services->scratch().c_str());
  std::fflush(stdout);
  std::printf("services stopped in %.3f s\n", services->Stop());
  return live::StopRequested() ? kExitBadInput : kExitOk;
}

// The services checked for this run: pinned as asked, a private database for an outage, the
// broker's delivery-limit counting, and the output directory made. nullptr after saying why.
std::unique_ptr<live::Services> StartServices(const config::Scenario& s,
                                              const std::string& scenario_path,
                                              const std::string& out_dir,
                                              const live::ServiceOptions& service_options) {
  base::Expected<std::unique_ptr<live::Services>> started = live::Services::Start(service_options);
  if (!started) {
    std::fprintf(stderr, "drainsim live: %s\n", started.error().c_str());
    return nullptr;
  }
  std::unique_ptr<live::Services> services = std::move(*started);
  PrintServices(*services);
  if (services->postgres() != nullptr) {
    if (const base::Status pinned =
            CheckPinned(services->postgres()->pid(), service_options.postgres_cpus);
        !pinned) {
      std::fprintf(stderr, "drainsim live: %s\n", pinned.error().c_str());
      return nullptr;
    }
  }
  if (!live::DbOutageWindows(s).empty() && !services->private_postgres()) {
    // An outage for real cuts the whole database off: only on the run's own server.
    std::fprintf(stderr, "%s: db_outage is run only on the private PostgreSQL, not --postgres\n",
                 scenario_path.c_str());
    return nullptr;
  }
  if (const base::Status version = CheckBrokerVersion(s, services->amqp_url()); !version) {
    std::fprintf(stderr, "%s: %s\n", scenario_path.c_str(), version.error().c_str());
    return nullptr;
  }
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    std::fprintf(stderr, "drainsim live: cannot create %s: %s\n", out_dir.c_str(),
                 ec.message().c_str());
    return nullptr;
  }
  return services;
}

live::ServiceFigures StopServices(live::Services& services) {
  live::ServiceFigures figures;
  figures.private_rabbitmq = services.private_rabbitmq();
  figures.private_postgres = services.private_postgres();
  figures.start_s = services.start_s();
  figures.rabbitmq_ready_s = services.rabbit_ready_s();
  figures.postgres_ready_s = services.postgres_ready_s();
  figures.stop_s = services.Stop();
  return figures;
}

}  // namespace drainsim::cli
