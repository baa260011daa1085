// A private RabbitMQ node for `drainsim live`: its own node name, data, logs, config and Erlang
// cookie in a scratch directory, its own epmd, every listener on 127.0.0.1 and a free port, so
// that it clashes with nothing else on the machine (a system RabbitMQ, another drainsim).
//
// How (RabbitMQ documentation: "Configuration", environment variables,
// https://www.rabbitmq.com/docs/configure#supported-environment-variables; "File and Directory
// Locations", https://www.rabbitmq.com/docs/relocate; "Networking", epmd and the distribution
// port, https://www.rabbitmq.com/docs/networking#epmd-inet-dist-port-range; rabbitmq-server(8)):
//   RABBITMQ_NODENAME=drainsim-PID-PORT@localhost     unique per run
//   RABBITMQ_NODE_IP_ADDRESS=127.0.0.1, RABBITMQ_NODE_PORT=free   the AMQP listener
//   RABBITMQ_DIST_PORT=free, ERL_EPMD_PORT=free, ERL_EPMD_ADDRESS=127.0.0.1
//   RABBITMQ_MNESIA_BASE, RABBITMQ_LOG_BASE, RABBITMQ_CONFIG_FILE (rabbitmq.conf: the listener),
//   RABBITMQ_CONF_ENV_FILE (empty: /etc/rabbitmq/rabbitmq-env.conf is not read),
//   RABBITMQ_ENABLED_PLUGINS_FILE ("[]."), RABBITMQ_ADVANCED_CONFIG_FILE, HOME (the cookie)
//   into the scratch directory, and `-kernel inet_dist_use_interface {127,0,0,1}` so that the
//   distribution listener is on loopback too, and `-start_epmd false` (erl(1)).
// epmd is started by us (`epmd -port P -address 127.0.0.1`, in the foreground) rather than by the
// node (which would daemonize it out of our reach), and stopped after the node.
// The broker runs as the `rabbitmq` user Debian's package creates when we are root.
//
// Contract:
//  (1) Launch() spawns epmd and the node on the calling thread, which must outlive them (the
//      parent-death signal is tied to the forking thread). WaitReady() succeeds once the node
//      accepted an AMQP login (guest/guest, allowed on loopback). On a failure nothing of it is
//      left running once the object is destroyed.
//  (2) Stop() (or the destructor) ends the node (SIGTERM to its process group: the start script
//      and beam.smp stop gracefully; SIGKILL after 20 s) and then epmd.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "live/local_ports.h"
#include "live/process.h"
#include "sim/base/expected.h"

namespace drainsim::live {

class PrivateRabbitMq {
 public:
  // consumer_timeout_ms: written to advanced.config with a channel tick of kTickMs (RabbitMQ
  // 3.10 checks a channel's oldest unacked delivery against consumer_timeout on each tick,
  // channel_tick_interval, 60 s by default); nullopt leaves both at their defaults.
  static base::Expected<std::unique_ptr<PrivateRabbitMq>> Launch(
      const ScratchDir& dir, std::optional<int64_t> consumer_timeout_ms = std::nullopt);
  static constexpr int64_t kTickMs = 200;
  base::Status WaitReady(std::chrono::milliseconds timeout);
  ~PrivateRabbitMq() { Stop(); }

  // amqp://guest:guest@127.0.0.1:PORT (the default vhost "/"; a trailing "/" would mean vhost "")
  const std::string& url() const { return url_; }
  int port() const { return port_; }
  int epmd_port() const { return epmd_port_; }
  int dist_port() const { return dist_port_; }
  pid_t pid() const { return server_.pid(); }
  pid_t epmd_pid() const { return epmd_.pid(); }
  const std::string& node_name() const { return node_name_; }
  const std::string& log_path() const { return log_path_; }
  // rabbitmqctl for this node (argv: the CLI, -q, -n NODE; the command is appended): its
  // environment (epmd port, the cookie's HOME) and user; the node's own log (a line "Server
  // startup complete" at every start of the application); a file for the CLI's output.
  // live/broker_restart.h restarts the application with it.
  ChildSpec ControlSpec() const;
  std::string node_log_path() const { return home_ + "/log/" + node_name_ + ".log"; }
  std::string control_output_path() const { return home_ + "/rabbitmqctl.out"; }
  void Stop();

 private:
  PrivateRabbitMq() = default;
  Child epmd_;
  Child server_;
  std::string url_;
  std::string node_name_;
  std::string log_path_;
  std::string home_;
  std::string user_;
  std::vector<std::string> env_;  // the node's (and its CLI's) environment
  int port_ = 0;
  int epmd_port_ = 0;
  int dist_port_ = 0;
};

// The start script: $DRAINSIM_RABBITMQ_SERVER, else Debian's /usr/lib/rabbitmq/bin/rabbitmq-server;
// "" when absent.
std::string RabbitMqServerScript();

}  // namespace drainsim::live
