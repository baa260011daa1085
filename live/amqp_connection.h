// One AMQP 0-9-1 connection (rabbitmq-c, Debian's librabbitmq) with the few operations
// `drainsim live` needs: topology, publishing with publisher confirms, consuming with
// basic.qos, ack/reject/nack, basic.get for inspecting a queue at the end.
//
// Contract:
//  (1) Errors are values: Open() returns the connection or why there is none; every later
//      operation returns false (or nullopt) and sets error() to what the broker or the library
//      said; the connection is then unusable (Ok() false) except for destruction. Nothing
//      throws. (An operation's failure stays in the connection, not in an Expected: the
//      connection is dead afterwards, and its callers ask connection_lost() as well as error().)
//  (2) Channel 1 is opened by Open(); everything happens on it.
//  (3) Publish() assigns publish sequence numbers 1, 2, ... once ConfirmSelect() is on;
//      WaitConfirms() reads basic.ack/basic.nack until every number so far is confirmed (or the
//      timeout), so a caller knows which publishes the broker took responsibility for.
//  (4) Every wait is bounded (a timeout argument, at most one RPC timeout of 30 s otherwise).
//
// Thread-safety: none; one thread uses a connection (rabbitmq-c's own rule).
#pragma once

#include <amqp.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "live/amqp_fields.h"
#include "sim/base/expected.h"

namespace drainsim::live {

class AmqpConnection {
 public:
  // Parses `url` (amqp://user:pass@host:port/vhost), connects, logs in, opens channel 1.
  static base::Expected<std::unique_ptr<AmqpConnection>> Open(const std::string& url,
                                                              const std::string& name);
  ~AmqpConnection();
  AmqpConnection(const AmqpConnection&) = delete;
  AmqpConnection& operator=(const AmqpConnection&) = delete;

  bool Ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  // The whole connection is gone (its socket failed or closed, or the broker sent
  // connection.close: a broker that stops), not just the channel (a consumer timeout).
  bool connection_lost() const { return connection_lost_; }
  // The broker's server-properties at connection: "product" and "version" ("3.10.8").
  const std::string& server_product() const { return product_; }
  const std::string& server_version() const { return version_; }

  bool DeclareExchange(const std::string& name, const std::string& type);
  bool DeleteExchange(const std::string& name);
  bool DeclareQueue(const std::string& name, const AmqpHeaders& arguments);
  bool BindQueue(const std::string& queue, const std::string& exchange, const std::string& key);
  bool DeleteQueue(const std::string& name);
  // Ready messages in `name` (passive declare), or nullopt.
  std::optional<int64_t> ReadyCount(const std::string& name);

  bool ConfirmSelect();
  // Publishes to the default exchange with routing key `queue`, persistent; with
  // `expiration_ms`, a per-message TTL (the `expiration` property).
  bool Publish(const std::string& queue, const std::string& message_id, const AmqpHeaders& headers,
               const std::string& body, std::optional<int64_t> expiration_ms = std::nullopt);
  uint64_t published() const { return next_publish_seq_ - 1; }
  uint64_t confirmed() const { return confirmed_; }
  // Reads confirms until confirmed() == published() or `timeout`; false on a nack or an error.
  bool WaitConfirms(std::chrono::milliseconds timeout);
  // Reads the confirms that have already arrived, without waiting.
  bool PollConfirms() { return WaitConfirms(std::chrono::milliseconds(0)); }

  bool Qos(int prefetch);
  bool Consume(const std::string& queue);
  // The next delivery within `timeout`: a message, nullopt on timeout (Ok() true), or nullopt
  // with Ok() false on an error (the channel or connection was closed by the broker).
  std::optional<AmqpMessage> NextDelivery(std::chrono::milliseconds timeout);
  bool Ack(uint64_t delivery_tag);
  // basic.reject (nack == false) or basic.nack (nack == true) with `requeue`.
  bool Reject(uint64_t delivery_tag, bool requeue, bool nack);
  // Drops the connection as a crashed process would: the socket is closed with no AMQP close
  // handshake, so the broker finds the connection gone and requeues the channel's unacked
  // deliveries at once. The object is unusable afterwards (Ok() false).
  void Abort();
  // basic.get: the next message of `queue`, nullopt when empty or on error. With auto_ack false
  // it stays the channel's until Ack() or Reject() of its delivery_tag, or until the connection
  // closes (the broker then requeues it).
  std::optional<AmqpMessage> Get(const std::string& queue, bool auto_ack = true);

 private:
  AmqpConnection() = default;
  bool Check(amqp_rpc_reply_t reply, const char* what);
  bool CheckStatus(int status, const char* what);

  amqp_connection_state_t conn_ = nullptr;
  std::string error_;
  std::string product_;
  std::string version_;
  uint64_t next_publish_seq_ = 1;
  uint64_t confirmed_ = 0;
  bool confirming_ = false;
  bool connection_lost_ = false;
};

}  // namespace drainsim::live
