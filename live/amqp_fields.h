// AMQP field values, both ways: the headers and arguments `drainsim live` sends (strings and
// integers) as rabbitmq-c field tables, and what it reads back from the broker (a delivery's
// message id, headers and x-death; the server-properties at connection). Split from
// live/amqp_connection.cc, which keeps the protocol (connection, channel, RPCs, confirms).
//
// Contract:
//  (1) Only strings and integers are carried: a header of another kind (a float, a table, a
//      boolean) is left out when read, never an error; x-death is read into AmqpMessage's death
//      fields, not into headers.
//  (2) amqp_fields::Bytes() and TableView are views: they point into the strings they were made
//      from, so they are valid only while those live unchanged. Nothing here allocates through
//      rabbitmq-c or frees its memory.
//
// Thread-safety: plain functions and values; a TableView is used by one thread.
#pragma once

#include <amqp.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace drainsim::live {

using AmqpValue = std::variant<std::string, int64_t>;
using AmqpHeaders = std::map<std::string, AmqpValue>;

struct AmqpMessage {
  uint64_t delivery_tag = 0;
  bool redelivered = false;
  std::string message_id;
  AmqpHeaders headers;  // strings and integers only; others are left out
  // From x-death (dead-lettered messages): the first entry's reason and count, and its time.
  std::string death_reason;
  int64_t death_count = 0;
  int64_t death_time_s = 0;  // Unix seconds, as the broker stamps it
};

// The string value of a header, or "".
std::string HeaderString(const AmqpHeaders& headers, const std::string& name);
// The integer value of a header (an integer, or a string of digits), or `fallback`.
int64_t HeaderInt(const AmqpHeaders& headers, const std::string& name, int64_t fallback);

// The rabbitmq-c side, for live/amqp_connection.cc.
namespace amqp_fields {

std::string BytesToString(amqp_bytes_t bytes);
// A view of `text` (contract (2)).
amqp_bytes_t Bytes(const std::string& text);

// An amqp_table_t view of AmqpHeaders; valid while both live (contract (2)).
class TableView {
 public:
  explicit TableView(const AmqpHeaders& headers);
  amqp_table_t table();

 private:
  std::vector<amqp_table_entry_t> entries_;
};

// An integer field of any width (and a timestamp) as int64_t; nullopt for other kinds.
std::optional<int64_t> IntValue(const amqp_field_value_t& v);
// A delivery's message id and headers (contract (1)) into *out.
void ReadProperties(const amqp_basic_properties_t& props, AmqpMessage* out);
// The broker's server-property `name` (a UTF-8 string: "product", "version"), or "".
std::string ServerProperty(amqp_connection_state_t conn, const char* name);

}  // namespace amqp_fields

}  // namespace drainsim::live
