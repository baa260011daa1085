#include "live/private_rabbitmq.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

#include "live/amqp_connection.h"

namespace drainsim::live {

namespace {

std::string RabbitmqServerUser() { return geteuid() == 0 ? "rabbitmq" : ""; }

std::string FindEpmd() {
  for (const char* path : {"/usr/bin/epmd", "/usr/lib/erlang/bin/epmd"}) {
    if (access(path, X_OK) == 0) return path;
  }
  return "";
}

// The node's configuration files in DIR/rabbitmq: its listener on loopback, no plugins, and
// with a consumer timeout its advanced.config.
base::Status WriteConfig(const ScratchDir& dir, const std::string& user, int port,
                         std::optional<int64_t> consumer_timeout_ms) {
  std::vector<std::pair<std::string, std::string>> files = {
      {"rabbitmq/rabbitmq.conf",
       "listeners.tcp.default = 127.0.0.1:" + std::to_string(port) + "\n"},
      {"rabbitmq/enabled_plugins", "[].\n"},
      {"rabbitmq/rabbitmq-env.conf", ""}};
  if (consumer_timeout_ms) {
    files.emplace_back("rabbitmq/advanced.config",
                       "[{rabbit, [{consumer_timeout, " + std::to_string(*consumer_timeout_ms) +
                           "}, {channel_tick_interval, " +
                           std::to_string(PrivateRabbitMq::kTickMs) + "}]}].\n");
  }
  for (const auto& [name, text] : files) {
    if (base::Status written = dir.WriteFile(name, text, user); !written) return written;
  }
  return {};
}

// epmd on loopback `port`, in *out, once it listens; a failure leaves *out (if it started) to be
// stopped by its owner.
base::Status StartEpmd(const std::string& epmd, int port, const std::vector<std::string>& env,
                       const std::string& user, const std::string& log_path,
                       const std::string& home, Child* out) {
  ChildSpec epmd_spec;
  epmd_spec.argv = {epmd, "-port", std::to_string(port), "-address", "127.0.0.1"};
  epmd_spec.env = env;
  epmd_spec.run_as_user = user;
  epmd_spec.log_path = log_path;
  epmd_spec.cwd = home;
  base::Expected<Child> spawned = Child::Spawn(epmd_spec);
  if (!spawned) return base::Failure{spawned.error()};
  *out = std::move(*spawned);
  // The node must find our epmd listening: with -start_epmd false it never starts one of its
  // own (which would daemonize out of our process group and outlive the run).
  for (int i = 0; !LoopbackPortOpen(port, std::chrono::milliseconds(100)); ++i) {
    if (i == 100 || !out->Running()) {
      return base::Failure{"epmd did not listen on port " + std::to_string(port)};
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return {};
}

// The server script's RABBITMQ_* variables: everything under `home`, every port on loopback.
std::vector<std::string> ServerVariables(const std::string& node_name, int port, int dist_port,
                                         const std::string& home) {
  return {"RABBITMQ_NODENAME=" + node_name,
          std::string("RABBITMQ_NODE_IP_ADDRESS=127.0.0.1"),
          "RABBITMQ_NODE_PORT=" + std::to_string(port),
          "RABBITMQ_DIST_PORT=" + std::to_string(dist_port),
          "RABBITMQ_MNESIA_BASE=" + home + "/mnesia",
          "RABBITMQ_LOG_BASE=" + home + "/log",
          "RABBITMQ_CONFIG_FILE=" + home + "/rabbitmq.conf",
          "RABBITMQ_ADVANCED_CONFIG_FILE=" + home + "/advanced.config",
          "RABBITMQ_CONF_ENV_FILE=" + home + "/rabbitmq-env.conf",
          "RABBITMQ_ENABLED_PLUGINS_FILE=" + home + "/enabled_plugins",
          "RABBITMQ_PLUGINS_EXPAND_DIR=" + home + "/plugins-expand",
          "RABBITMQ_PID_FILE=" + home + "/rabbitmq.pid",
          std::string("RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=-start_epmd false -kernel "
                      "inet_dist_use_interface {127,0,0,1}")};
}

}  // namespace

std::string RabbitMqServerScript() {
  if (const char* env = std::getenv("DRAINSIM_RABBITMQ_SERVER"); env != nullptr && *env != '\0') {
    return env;
  }
  const char* debian = "/usr/lib/rabbitmq/bin/rabbitmq-server";
  return access(debian, X_OK) == 0 ? debian : "";
}

base::Expected<std::unique_ptr<PrivateRabbitMq>> PrivateRabbitMq::Launch(
    const ScratchDir& dir, std::optional<int64_t> consumer_timeout_ms) {
  const std::string script = RabbitMqServerScript();
  const std::string epmd = FindEpmd();
  if (script.empty() || epmd.empty()) {
    return base::Failure{
        "RabbitMQ not installed (no /usr/lib/rabbitmq/bin/rabbitmq-server or epmd; Debian: "
        "apt-get install rabbitmq-server)"};
  }
  const std::string user = RabbitmqServerUser();
  if (base::Status made = dir.MakeSubdir("rabbitmq", user); !made) {
    return base::Failure{made.error()};
  }
  std::unique_ptr<PrivateRabbitMq> mq(new PrivateRabbitMq());
  const std::string home = dir.path() + "/rabbitmq";
  mq->log_path_ = dir.path() + "/rabbitmq.log";
  mq->port_ = FreeLoopbackPort();
  mq->dist_port_ = FreeLoopbackPort();
  mq->epmd_port_ = FreeLoopbackPort();
  mq->node_name_ =
      "drainsim-" + std::to_string(getpid()) + "-" + std::to_string(mq->port_) + "@localhost";
  if (base::Status written = WriteConfig(dir, user, mq->port_, consumer_timeout_ms); !written) {
    return base::Failure{written.error()};
  }
  std::vector<std::string> env = {"PATH=/usr/sbin:/usr/bin:/bin",
                                  "LANG=C.UTF-8",
                                  "LC_ALL=C.UTF-8",
                                  "HOME=" + home,
                                  "ERL_EPMD_PORT=" + std::to_string(mq->epmd_port_),
                                  "ERL_EPMD_ADDRESS=127.0.0.1"};

  if (base::Status epmd_up =
          StartEpmd(epmd, mq->epmd_port_, env, user, mq->log_path_, home, &mq->epmd_);
      !epmd_up) {
    return base::Failure{epmd_up.error()};
  }

  ChildSpec server;
  server.argv = {script};
  server.env = env;
  for (std::string& var : ServerVariables(mq->node_name_, mq->port_, mq->dist_port_, home)) {
    server.env.push_back(std::move(var));
  }
  server.run_as_user = user;
  server.log_path = mq->log_path_;
  server.cwd = home;
  server.death_signal = SIGTERM;  // the script's trap stops beam.smp gracefully
  base::Expected<Child> spawned = Child::Spawn(server);
  if (!spawned) return base::Failure{spawned.error()};
  mq->server_ = std::move(*spawned);

  mq->home_ = home;
  mq->user_ = user;
  mq->env_ = server.env;
  mq->url_ = "amqp://guest:guest@127.0.0.1:" + std::to_string(mq->port_);  // no path: vhost "/"
  return mq;
}

base::Status PrivateRabbitMq::WaitReady(std::chrono::milliseconds timeout) {
  // The port opens before the node accepts AMQP: ready is a connection that opens.
  auto ready = [&] {
    if (!LoopbackPortOpen(port_, std::chrono::milliseconds(200))) return false;
    return AmqpConnection::Open(url_, "drainsim live: readiness probe").ok();
  };
  return WaitUntilReady(server_, "RabbitMQ", log_path_, timeout, std::chrono::milliseconds(100),
                        ready);
}

ChildSpec PrivateRabbitMq::ControlSpec() const {
  ChildSpec spec;
  // rabbitmqctl beside the start script (Debian: /usr/lib/rabbitmq/bin).
  const std::string script = RabbitMqServerScript();
  spec.argv = {script.substr(0, script.rfind('/') + 1) + "rabbitmqctl", "-q", "-n", node_name_};
  spec.env = env_;
  spec.run_as_user = user_;
  spec.cwd = home_;
  return spec;
}

void PrivateRabbitMq::Stop() {
  server_.Stop(SIGTERM, std::chrono::seconds(20));
  epmd_.Stop(SIGTERM, std::chrono::seconds(5));
}

}  // namespace drainsim::live
