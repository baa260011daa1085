#include "tools/drainsim/live_serve.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "live/stop_signal.h"
#include "tools/drainsim/cli.h"
#include "tools/drainsim/output_set.h"

namespace drainsim::cli {

namespace {

// Every live scenario's pool (16 at most today) plus live traffic's connections, with room for a
// run whose connections are still closing when the next one starts.
constexpr int kServeMaxConnections = 100;

nlohmann::json StateJson(const live::Services& services) {
  nlohmann::json j;
  j["drainsim_pid"] = getpid();
  j["amqp_url"] = services.amqp_url();
  j["postgres_url"] = services.postgres_url();
  j["scratch"] = services.scratch();
  j["ready_s"] = services.start_s();
  if (const live::PrivateRabbitMq* mq = services.rabbit()) {
    const live::ChildSpec ctl = mq->ControlSpec();
    j["rabbitmq"] = {
        {"pid", mq->pid()},
        {"port", mq->port()},
        {"dist_port", mq->dist_port()},
        {"epmd_pid", mq->epmd_pid()},
        {"epmd_port", mq->epmd_port()},
        {"node", mq->node_name()},
        {"rabbitmqctl",
         {{"argv", ctl.argv}, {"env", ctl.env}, {"user", ctl.run_as_user}, {"cwd", ctl.cwd}}}};
  }
  if (const live::PrivatePostgres* pg = services.postgres()) {
    j["postgres"] = {{"pid", pg->pid()}, {"port", pg->port()}};
  }
  return j;
}

// Through the output set (output_set.h), the one atomic file write: written whole and fsync'ed
// beside it, then renamed over it, so that a reader never sees half of it. Success, or the
// error ("cannot write F: No space left on device").
base::Status WriteState(const std::string& path, const nlohmann::json& state) {
  const std::filesystem::path file(path);
  const std::string name = file.filename().string();
  if (name.empty() || name == "." || name == "..") {
    return base::Failure{"cannot write " + path + ": not a file"};
  }
  const std::string dir = file.has_parent_path() ? file.parent_path().string() : ".";
  return WriteOutputSet(dir, {{name, state.dump(2) + "\n"}});
}

}  // namespace

int ServeServices(live::ServiceOptions options, const std::string& state_file, double max_s) {
  if (state_file.empty()) {
    std::fprintf(stderr, "drainsim live: --serve-services needs --state-file F\n");
    return kExitBadInput;
  }
  options.max_connections = kServeMaxConnections;
  base::Expected<std::unique_ptr<live::Services>> started = live::Services::Start(options);
  if (!started) {
    std::fprintf(stderr, "drainsim live: %s\n", started.error().c_str());
    return kExitBadInput;
  }
  std::unique_ptr<live::Services>& services = *started;
  std::printf("services ready in %.3f s\n", services->start_s());
  if (const live::PrivateRabbitMq* mq = services->rabbit()) {
    std::printf("rabbitmq: pid %d port %d dist_port %d epmd pid %d port %d node %s\n", mq->pid(),
                mq->port(), mq->dist_port(), mq->epmd_pid(), mq->epmd_port(),
                mq->node_name().c_str());
  }
  if (const live::PrivatePostgres* pg = services->postgres()) {
    std::printf("postgres: pid %d port %d\n", pg->pid(), pg->port());
  }
  std::printf("scratch: %s\n", services->scratch().c_str());
  std::fflush(stdout);
  if (const base::Status written = WriteState(state_file, StateJson(*services)); !written) {
    std::fprintf(stderr, "drainsim live: %s\n", written.error().c_str());
    return kExitBadInput;  // the destructor stops the services
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(max_s);
  bool timed_out = false;
  std::error_code ec;
  while (!live::StopRequested() && std::filesystem::exists(state_file, ec)) {
    if (std::chrono::steady_clock::now() >= deadline) {
      timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::printf("services stopped in %.3f s\n", services->Stop());
  services.reset();  // the scratch directory goes with it
  std::filesystem::remove(state_file, ec);
  if (timed_out) {
    std::fprintf(stderr, "drainsim live: --serve-services ended by its %.0f s bound\n", max_s);
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace drainsim::cli
