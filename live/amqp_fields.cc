#include "live/amqp_fields.h"

#include <cstdlib>

namespace drainsim::live {

namespace amqp_fields {

namespace {

// x-death: an array of tables, newest first (RabbitMQ "Dead Letter Exchanges", "Dead-Lettered
// Messages", https://www.rabbitmq.com/docs/dlx#effects).
void ReadDeath(const amqp_field_value_t& value, AmqpMessage* out) {
  if (value.kind != AMQP_FIELD_KIND_ARRAY || value.value.array.num_entries < 1) return;
  const amqp_field_value_t& first = value.value.array.entries[0];
  if (first.kind != AMQP_FIELD_KIND_TABLE) return;
  const amqp_table_t& table = first.value.table;
  for (int i = 0; i < table.num_entries; ++i) {
    const std::string key = BytesToString(table.entries[i].key);
    const amqp_field_value_t& v = table.entries[i].value;
    if (key == "reason" && (v.kind == AMQP_FIELD_KIND_UTF8 || v.kind == AMQP_FIELD_KIND_BYTES)) {
      out->death_reason = BytesToString(v.value.bytes);
    } else if (key == "count") {
      out->death_count = IntValue(v).value_or(0);
    } else if (key == "time") {
      out->death_time_s = IntValue(v).value_or(0);
    }
  }
}

}  // namespace

std::string BytesToString(amqp_bytes_t bytes) {
  return std::string(static_cast<const char*>(bytes.bytes), bytes.len);
}

amqp_bytes_t Bytes(const std::string& text) {
  return amqp_bytes_t{text.size(), const_cast<char*>(text.data())};
}

TableView::TableView(const AmqpHeaders& headers) {
  entries_.reserve(headers.size());
  for (const auto& [key, value] : headers) {
    amqp_table_entry_t entry{};
    entry.key = Bytes(key);
    if (const auto* text = std::get_if<std::string>(&value)) {
      entry.value.kind = AMQP_FIELD_KIND_UTF8;
      entry.value.value.bytes = Bytes(*text);
    } else {
      entry.value.kind = AMQP_FIELD_KIND_I64;
      entry.value.value.i64 = std::get<int64_t>(value);
    }
    entries_.push_back(entry);
  }
}

amqp_table_t TableView::table() {
  return amqp_table_t{static_cast<int>(entries_.size()),
                      entries_.empty() ? nullptr : entries_.data()};
}

std::optional<int64_t> IntValue(const amqp_field_value_t& v) {
  switch (v.kind) {
    case AMQP_FIELD_KIND_I8:
      return v.value.i8;
    case AMQP_FIELD_KIND_U8:
      return v.value.u8;
    case AMQP_FIELD_KIND_I16:
      return v.value.i16;
    case AMQP_FIELD_KIND_U16:
      return v.value.u16;
    case AMQP_FIELD_KIND_I32:
      return v.value.i32;
    case AMQP_FIELD_KIND_U32:
      return v.value.u32;
    case AMQP_FIELD_KIND_I64:
      return v.value.i64;
    case AMQP_FIELD_KIND_U64:
    case AMQP_FIELD_KIND_TIMESTAMP:
      return static_cast<int64_t>(v.value.u64);
    default:
      return std::nullopt;
  }
}

void ReadProperties(const amqp_basic_properties_t& props, AmqpMessage* out) {
  if (props._flags & AMQP_BASIC_MESSAGE_ID_FLAG) out->message_id = BytesToString(props.message_id);
  if (!(props._flags & AMQP_BASIC_HEADERS_FLAG)) return;
  for (int i = 0; i < props.headers.num_entries; ++i) {
    const std::string key = BytesToString(props.headers.entries[i].key);
    const amqp_field_value_t& v = props.headers.entries[i].value;
    if (key == "x-death") {
      ReadDeath(v, out);
    } else if (v.kind == AMQP_FIELD_KIND_UTF8 || v.kind == AMQP_FIELD_KIND_BYTES) {
      out->headers[key] = BytesToString(v.value.bytes);
    } else if (auto n = IntValue(v)) {
      out->headers[key] = *n;
    }
  }
}

std::string ServerProperty(amqp_connection_state_t conn, const char* name) {
  const amqp_table_t* props = amqp_get_server_properties(conn);
  if (props == nullptr) return "";
  for (int i = 0; i < props->num_entries; ++i) {
    if (BytesToString(props->entries[i].key) == name &&
        props->entries[i].value.kind == AMQP_FIELD_KIND_UTF8) {
      return BytesToString(props->entries[i].value.value.bytes);
    }
  }
  return "";
}

}  // namespace amqp_fields

std::string HeaderString(const AmqpHeaders& headers, const std::string& name) {
  auto it = headers.find(name);
  if (it == headers.end()) return "";
  if (const auto* text = std::get_if<std::string>(&it->second)) return *text;
  return std::to_string(std::get<int64_t>(it->second));
}

int64_t HeaderInt(const AmqpHeaders& headers, const std::string& name, int64_t fallback) {
  auto it = headers.find(name);
  if (it == headers.end()) return fallback;
  if (const auto* n = std::get_if<int64_t>(&it->second)) return *n;
  const std::string& text = std::get<std::string>(it->second);
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  return (end != nullptr && *end == '\0' && !text.empty()) ? v : fallback;
}

}  // namespace drainsim::live
