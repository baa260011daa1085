#include "live/amqp_connection.h"

#include <amqp_tcp_socket.h>
#include <sys/time.h>

#include <cstring>
#include <vector>

namespace drainsim::live {

namespace {

using amqp_fields::Bytes;
using amqp_fields::BytesToString;
using amqp_fields::ReadProperties;
using amqp_fields::ServerProperty;
using amqp_fields::TableView;

constexpr amqp_channel_t kChannel = 1;

timeval ToTimeval(std::chrono::milliseconds timeout) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  return tv;
}

// rabbitmq-c statuses that mean the socket is gone (amqp.h, amqp_status_enum).
bool SocketGone(int status) {
  return status == AMQP_STATUS_SOCKET_ERROR || status == AMQP_STATUS_CONNECTION_CLOSED ||
         status == AMQP_STATUS_SOCKET_CLOSED || status == AMQP_STATUS_HEARTBEAT_TIMEOUT;
}

}  // namespace

base::Expected<std::unique_ptr<AmqpConnection>> AmqpConnection::Open(const std::string& url,
                                                                     const std::string& name) {
  std::vector<char> url_copy(url.begin(), url.end());
  url_copy.push_back('\0');
  amqp_connection_info info{};
  amqp_default_connection_info(&info);
  if (amqp_parse_url(url_copy.data(), &info) != AMQP_STATUS_OK) {
    return base::Failure{"not an AMQP URL: " + url};
  }
  std::unique_ptr<AmqpConnection> c(new AmqpConnection());
  c->conn_ = amqp_new_connection();
  amqp_socket_t* socket = amqp_tcp_socket_new(c->conn_);
  if (socket == nullptr) return base::Failure{"cannot create a socket"};
  timeval connect_timeout = ToTimeval(std::chrono::seconds(5));
  int status = amqp_socket_open_noblock(socket, info.host, info.port, &connect_timeout);
  if (status != AMQP_STATUS_OK) {
    return base::Failure{std::string("cannot connect to ") + info.host + ":" +
                         std::to_string(info.port) + ": " + amqp_error_string2(status)};
  }
  timeval rpc_timeout = ToTimeval(std::chrono::seconds(30));
  amqp_set_rpc_timeout(c->conn_, &rpc_timeout);
  amqp_table_entry_t client_entry{};
  client_entry.key = amqp_cstring_bytes("connection_name");
  client_entry.value.kind = AMQP_FIELD_KIND_UTF8;
  client_entry.value.value.bytes = Bytes(name);
  amqp_table_t client_properties{1, &client_entry};
  if (!c->Check(amqp_login_with_properties(c->conn_, info.vhost, 0, 131072, 0, &client_properties,
                                           AMQP_SASL_METHOD_PLAIN, info.user, info.password),
                "login") ||
      (amqp_channel_open(c->conn_, kChannel),
       !c->Check(amqp_get_rpc_reply(c->conn_), "channel.open"))) {
    return base::Failure{c->error_};
  }
  c->product_ = ServerProperty(c->conn_, "product");
  c->version_ = ServerProperty(c->conn_, "version");
  return c;
}

AmqpConnection::~AmqpConnection() {
  if (conn_ == nullptr) return;
  if (Ok()) {
    amqp_channel_close(conn_, kChannel, AMQP_REPLY_SUCCESS);
    amqp_connection_close(conn_, AMQP_REPLY_SUCCESS);
  }
  amqp_destroy_connection(conn_);
}

void AmqpConnection::Abort() {
  if (conn_ == nullptr) return;
  amqp_destroy_connection(conn_);  // closes the socket; nothing is sent first
  conn_ = nullptr;
  error_ = "connection dropped (a crash)";
}

bool AmqpConnection::Check(amqp_rpc_reply_t reply, const char* what) {
  if (reply.reply_type == AMQP_RESPONSE_NORMAL) return true;
  std::string why;
  if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION) {
    why = amqp_error_string2(reply.library_error);
    connection_lost_ = connection_lost_ || SocketGone(reply.library_error);
  } else if (reply.reply_type == AMQP_RESPONSE_SERVER_EXCEPTION) {
    if (reply.reply.id == AMQP_CONNECTION_CLOSE_METHOD) {
      connection_lost_ = true;
      auto* m = static_cast<amqp_connection_close_t*>(reply.reply.decoded);
      why = "connection closed by the broker: " + BytesToString(m->reply_text);
    } else if (reply.reply.id == AMQP_CHANNEL_CLOSE_METHOD) {
      auto* m = static_cast<amqp_channel_close_t*>(reply.reply.decoded);
      why = "channel closed by the broker: " + BytesToString(m->reply_text);
    } else {
      why = "unexpected server reply";
    }
  } else {
    why = "no reply";
  }
  error_ = std::string(what) + ": " + why;
  return false;
}

bool AmqpConnection::CheckStatus(int status, const char* what) {
  if (status == AMQP_STATUS_OK) return true;
  connection_lost_ = connection_lost_ || SocketGone(status);
  error_ = std::string(what) + ": " + amqp_error_string2(status);
  return false;
}

bool AmqpConnection::DeclareExchange(const std::string& name, const std::string& type) {
  amqp_exchange_declare(conn_, kChannel, Bytes(name), Bytes(type), 0, 1, 0, 0, amqp_empty_table);
  return Check(amqp_get_rpc_reply(conn_), "exchange.declare");
}

bool AmqpConnection::DeleteExchange(const std::string& name) {
  amqp_exchange_delete(conn_, kChannel, Bytes(name), 0);
  return Check(amqp_get_rpc_reply(conn_), "exchange.delete");
}

bool AmqpConnection::DeclareQueue(const std::string& name, const AmqpHeaders& arguments) {
  TableView args(arguments);
  amqp_queue_declare(conn_, kChannel, Bytes(name), 0, 1, 0, 0, args.table());
  return Check(amqp_get_rpc_reply(conn_), "queue.declare");
}

bool AmqpConnection::BindQueue(const std::string& queue, const std::string& exchange,
                               const std::string& key) {
  amqp_queue_bind(conn_, kChannel, Bytes(queue), Bytes(exchange), Bytes(key), amqp_empty_table);
  return Check(amqp_get_rpc_reply(conn_), "queue.bind");
}

bool AmqpConnection::DeleteQueue(const std::string& name) {
  amqp_queue_delete(conn_, kChannel, Bytes(name), 0, 0);
  return Check(amqp_get_rpc_reply(conn_), "queue.delete");
}

std::optional<int64_t> AmqpConnection::ReadyCount(const std::string& name) {
  amqp_queue_declare_ok_t* ok =
      amqp_queue_declare(conn_, kChannel, Bytes(name), 1, 0, 0, 0, amqp_empty_table);
  if (!Check(amqp_get_rpc_reply(conn_), "queue.declare (passive)") || ok == nullptr) {
    return std::nullopt;
  }
  return ok->message_count;
}

bool AmqpConnection::ConfirmSelect() {
  amqp_confirm_select(conn_, kChannel);
  confirming_ = Check(amqp_get_rpc_reply(conn_), "confirm.select");
  return confirming_;
}

bool AmqpConnection::Publish(const std::string& queue, const std::string& message_id,
                             const AmqpHeaders& headers, const std::string& body,
                             std::optional<int64_t> expiration_ms) {
  TableView table(headers);
  const std::string expiration = expiration_ms ? std::to_string(*expiration_ms) : "";
  amqp_basic_properties_t props{};
  props._flags = AMQP_BASIC_DELIVERY_MODE_FLAG | AMQP_BASIC_MESSAGE_ID_FLAG |
                 AMQP_BASIC_HEADERS_FLAG | AMQP_BASIC_CONTENT_TYPE_FLAG;
  props.delivery_mode = 2;  // persistent
  props.message_id = Bytes(message_id);
  props.content_type = amqp_cstring_bytes("application/json");
  props.headers = table.table();
  if (expiration_ms) {
    props._flags |= AMQP_BASIC_EXPIRATION_FLAG;
    props.expiration = Bytes(expiration);
  }
  const int status = amqp_basic_publish(conn_, kChannel, amqp_empty_bytes, Bytes(queue), 0, 0,
                                        &props, Bytes(body));
  if (!CheckStatus(status, "basic.publish")) return false;
  if (confirming_) ++next_publish_seq_;
  return true;
}

bool AmqpConnection::WaitConfirms(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (confirmed_ < published()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    timeval tv = ToTimeval(std::max(left, std::chrono::milliseconds(0)));
    amqp_frame_t frame{};
    const int status = amqp_simple_wait_frame_noblock(conn_, &frame, &tv);
    if (status == AMQP_STATUS_TIMEOUT) return true;  // not all yet; the caller checks confirmed()
    if (!CheckStatus(status, "waiting for publisher confirms")) return false;
    if (frame.frame_type != AMQP_FRAME_METHOD) continue;
    if (frame.payload.method.id == AMQP_BASIC_ACK_METHOD) {
      auto* ack = static_cast<amqp_basic_ack_t*>(frame.payload.method.decoded);
      if (ack->multiple || ack->delivery_tag > confirmed_) {
        confirmed_ = std::max<uint64_t>(confirmed_, ack->delivery_tag);
      }
    } else if (frame.payload.method.id == AMQP_BASIC_NACK_METHOD) {
      error_ = "the broker refused a publish (basic.nack)";
      return false;
    } else if (frame.payload.method.id == AMQP_CHANNEL_CLOSE_METHOD ||
               frame.payload.method.id == AMQP_CONNECTION_CLOSE_METHOD) {
      connection_lost_ = frame.payload.method.id == AMQP_CONNECTION_CLOSE_METHOD;
      error_ = connection_lost_ ? "the broker closed the publishing connection"
                                : "the broker closed the publishing channel";
      return false;
    }
    amqp_maybe_release_buffers(conn_);
  }
  return true;
}

bool AmqpConnection::Qos(int prefetch) {
  amqp_basic_qos(conn_, kChannel, 0, static_cast<uint16_t>(prefetch), 0);
  return Check(amqp_get_rpc_reply(conn_), "basic.qos");
}

bool AmqpConnection::Consume(const std::string& queue) {
  amqp_basic_consume(conn_, kChannel, Bytes(queue), amqp_empty_bytes, 0, 0, 0, amqp_empty_table);
  return Check(amqp_get_rpc_reply(conn_), "basic.consume");
}

std::optional<AmqpMessage> AmqpConnection::NextDelivery(std::chrono::milliseconds timeout) {
  amqp_maybe_release_buffers(conn_);
  amqp_envelope_t envelope{};
  timeval tv = ToTimeval(timeout);
  const amqp_rpc_reply_t reply = amqp_consume_message(conn_, &envelope, &tv, 0);
  if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION &&
      reply.library_error == AMQP_STATUS_TIMEOUT) {
    return std::nullopt;
  }
  if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION &&
      reply.library_error == AMQP_STATUS_UNEXPECTED_STATE) {
    amqp_frame_t frame{};
    const int status = amqp_simple_wait_frame(conn_, &frame);
    if (status == AMQP_STATUS_OK && frame.frame_type == AMQP_FRAME_METHOD &&
        (frame.payload.method.id == AMQP_CHANNEL_CLOSE_METHOD ||
         frame.payload.method.id == AMQP_CONNECTION_CLOSE_METHOD)) {
      connection_lost_ = frame.payload.method.id == AMQP_CONNECTION_CLOSE_METHOD;
      error_ = connection_lost_ ? "the broker closed the connection"
                                : "the broker closed the consuming channel";
    } else if (status != AMQP_STATUS_OK) {
      CheckStatus(status, "basic.consume (waiting for a frame)");
    }
    return std::nullopt;  // another method (e.g. basic.cancel-ok): not a delivery
  }
  if (!Check(reply, "basic.consume (delivery)")) return std::nullopt;
  AmqpMessage message;
  message.delivery_tag = envelope.delivery_tag;
  message.redelivered = envelope.redelivered != 0;
  ReadProperties(envelope.message.properties, &message);
  amqp_destroy_envelope(&envelope);
  return message;
}

bool AmqpConnection::Ack(uint64_t delivery_tag) {
  return CheckStatus(amqp_basic_ack(conn_, kChannel, delivery_tag, 0), "basic.ack");
}

bool AmqpConnection::Reject(uint64_t delivery_tag, bool requeue, bool nack) {
  const int status = nack ? amqp_basic_nack(conn_, kChannel, delivery_tag, 0, requeue ? 1 : 0)
                          : amqp_basic_reject(conn_, kChannel, delivery_tag, requeue ? 1 : 0);
  return CheckStatus(status, nack ? "basic.nack" : "basic.reject");
}

std::optional<AmqpMessage> AmqpConnection::Get(const std::string& queue, bool auto_ack) {
  amqp_maybe_release_buffers(conn_);
  const amqp_rpc_reply_t reply = amqp_basic_get(conn_, kChannel, Bytes(queue), auto_ack ? 1 : 0);
  if (!Check(reply, "basic.get")) return std::nullopt;
  if (reply.reply.id == AMQP_BASIC_GET_EMPTY_METHOD) return std::nullopt;
  amqp_message_t raw{};
  if (!Check(amqp_read_message(conn_, kChannel, &raw, 0), "basic.get (message)")) {
    return std::nullopt;
  }
  AmqpMessage message;
  const auto* ok = static_cast<const amqp_basic_get_ok_t*>(reply.reply.decoded);
  message.delivery_tag = ok->delivery_tag;
  message.redelivered = ok->redelivered != 0;
  ReadProperties(raw.properties, &message);
  amqp_destroy_message(&raw);
  return message;
}

}  // namespace drainsim::live
