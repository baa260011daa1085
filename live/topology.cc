#include "live/topology.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "live/downstream_api.h"
#include "live/retry_plan.h"

namespace drainsim::live {

Topology MakeTopology(const config::Scenario& s) {
  Topology t;
  char hex[32];
  std::snprintf(
      hex, sizeof hex, "%llx",
      static_cast<unsigned long long>(std::chrono::system_clock::now().time_since_epoch().count()));
  t.run_id = "drainsim_live_" + std::to_string(getpid()) + "_" + hex;
  t.main_queue = t.run_id + ".main";
  t.dlq = t.run_id + ".dlq";
  t.parking_queue = t.run_id + ".parked";
  t.dlx = t.run_id + ".dlx";
  if (s.retry.delivery == config::RetryDelivery::kRepublish) {
    for (int64_t ms : DelayLevelsMs(s.retry)) t.delay_queues[ms] = DelayQueueName(t.run_id, ms);
    // A 429's Retry-After, whole seconds (live/downstream_api.h).
    for (int64_t ms : RetryAfterLevelsMs(s)) t.delay_queues[ms] = DelayQueueName(t.run_id, ms);
  }
  t.delivery_limit = s.broker.delivery_limit;
  t.quorum = s.broker.delivery_limit.has_value() ||
             s.broker.preset == config::BrokerPreset::kRabbitmqQuorum;
  return t;
}

AmqpHeaders DelayQueueArgs(const Topology& t) {
  // A delay queue's expired messages go back to the main queue's tail through the default
  // exchange (live/retry_plan.h); one queue per delay level, so they expire in order.
  AmqpHeaders args = {{"x-dead-letter-exchange", std::string()},
                      {"x-dead-letter-routing-key", t.main_queue}};
  if (t.quorum) {
    args["x-queue-type"] = std::string("quorum");
    args["x-dead-letter-strategy"] = std::string("at-least-once");
    args["x-overflow"] = std::string("reject-publish");
  }
  return args;
}

const char* DelayDeadLetterStrategy(const Topology& t) {
  return t.quorum ? "at-least-once" : "at-most-once";
}

bool Declare(AmqpConnection& c, const Topology& t) {
  AmqpHeaders main_args = {{"x-queue-type", std::string(t.quorum ? "quorum" : "classic")},
                           {"x-dead-letter-exchange", t.dlx}};
  if (t.delivery_limit) main_args["x-delivery-limit"] = *t.delivery_limit;
  if (!c.DeclareExchange(t.dlx, "fanout") || !c.DeclareQueue(t.dlq, {}) ||
      !c.BindQueue(t.dlq, t.dlx, "") || !c.DeclareQueue(t.parking_queue, {}) ||
      !c.DeclareQueue(t.main_queue, main_args)) {
    return false;
  }
  const AmqpHeaders delay_args = DelayQueueArgs(t);
  for (const auto& [ms, name] : t.delay_queues) {
    if (!c.DeclareQueue(name, delay_args)) return false;
  }
  return true;
}

std::optional<int64_t> DelayedCount(AmqpConnection& c, const Topology& t) {
  int64_t n = 0;
  for (const auto& [ms, name] : t.delay_queues) {
    const std::optional<int64_t> ready = c.ReadyCount(name);
    if (!ready) return std::nullopt;
    n += *ready;
  }
  return n;
}

void Undeclare(const std::string& url, const Topology& t) {
  base::Expected<std::unique_ptr<AmqpConnection>> opened =
      AmqpConnection::Open(url, "drainsim live: teardown");
  if (!opened) return;  // best effort (topology.h)
  const std::unique_ptr<AmqpConnection>& c = *opened;
  for (const std::string& q : {t.main_queue, t.dlq, t.parking_queue}) {
    if (!c->DeleteQueue(q)) return;
  }
  for (const auto& [ms, name] : t.delay_queues) {
    if (!c->DeleteQueue(name)) return;
  }
  c->DeleteExchange(t.dlx);
}

}  // namespace drainsim::live
