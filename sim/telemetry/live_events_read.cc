#include "sim/telemetry/live_events_read.h"

#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "sim/telemetry/set_names.h"

namespace drainsim::telemetry {

namespace {

using Json = nlohmann::json;
using base::Failure;

enum class End { kNone, kSucceeded, kByDetail, kCensored };

End EndOf(const std::string& event) {
  for (const char* e : {"ack", "ack_failed", "ack_lost", "crash_after_commit"}) {
    if (event == e) return End::kSucceeded;
  }
  for (const char* e : {"reject_requeue", "nack_requeue", "reject_dead_letter", "nack_dead_letter",
                        "republish", "park", "settle_dropped"}) {
    if (event == e) return End::kByDetail;
  }
  return event == "rolled_back" ? End::kCensored : End::kNone;
}

// "failed:transient (injected by fault 0)" -> "transient"; "" for a detail of a success.
std::string FailedClass(const std::string& detail) {
  constexpr std::string_view kFailed = "failed:";
  if (detail.rfind(kFailed, 0) != 0) return "";
  const size_t end = detail.find_first_of(" (;", kFailed.size());
  const std::string name = detail.substr(kFailed.size(), end - kFailed.size());
  return name.empty() ? "unknown" : name;
}

class LiveEventsReader {
 public:
  LiveEventsReader(const std::string& file, TelemetrySet& set)
      : file_(file), set_(set), names_(set) {}
  base::Status Line(std::string_view line, size_t number);
  void Finish();  // attempts still open: censored at the last time

 private:
  using Key = std::tuple<uint64_t, int64_t, int64_t>;  // id, worker, attempt
  Failure Problem(size_t line, const std::string& reason) const {
    return Failure{file_ + ": line " + std::to_string(line) + ": " + reason};
  }
  void Start(const Key& key, uint64_t id, int64_t at_ns);
  base::Status Settle(const Key& key, End end, const std::string& detail, int64_t at_ns,
                      size_t line);

  const std::string& file_;
  TelemetrySet& set_;
  SetNames names_;
  std::map<uint64_t, std::string> kind_of_;  // by message id: its publish line's detail
  std::map<Key, size_t> open_;               // attempt -> its span's index
  int64_t last_ns_ = 0;
};

void LiveEventsReader::Start(const Key& key, uint64_t id, int64_t at_ns) {
  const auto kind = kind_of_.find(id);
  const std::string kind_name = kind == kind_of_.end() ? "unknown" : kind->second;
  ProcessSpan span;
  span.kind = names_.Kind(kind_name);
  span.message = names_.Message(kind_name + "/" + std::to_string(id));
  span.start_ns = at_ns;
  span.end_ns = at_ns;
  span.censored = true;  // until it is settled
  // A second start of the same attempt (a redelivery the broker numbered alike) replaces the
  // first, which stays censored.
  open_[key] = set_.spans.size();
  set_.spans.push_back(span);
}

base::Status LiveEventsReader::Settle(const Key& key, End end, const std::string& detail,
                                      int64_t at_ns, size_t line) {
  const auto open = open_.find(key);
  if (open == open_.end()) return {};  // settled already, or started before the file
  ProcessSpan& span = set_.spans[open->second];
  if (at_ns < span.start_ns) {
    return Problem(line, "settles attempt " + std::to_string(std::get<2>(key)) + " of message " +
                             std::to_string(std::get<0>(key)) + " before its attempt line's t_s");
  }
  span.end_ns = at_ns;
  span.censored = end == End::kCensored;
  const std::string error = end == End::kByDetail ? FailedClass(detail) : "";
  if (!error.empty()) {
    span.failed = true;
    span.error_class = names_.Class(error);
  }
  open_.erase(open);
  return {};
}

base::Status LiveEventsReader::Line(std::string_view text, size_t number) {
  if (text.find_first_not_of(" \t\r") == std::string_view::npos) return {};
  if (text.size() > kLiveLineBytesMax) return Problem(number, "longer than 64 KiB");
  const Json e = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!e.is_object())
    return Problem(number, "not a JSON object (live-events.jsonl has one a line)");
  const auto t = e.find("t_s");
  const auto event = e.find("event");
  if (t == e.end() || !t->is_number() || !std::isfinite(t->get<double>()) || t->get<double>() < 0 ||
      t->get<double>() > 1e9) {
    return Problem(number, "no t_s (seconds from the run's start, 0..1e9)");
  }
  if (event == e.end() || !event->is_string()) return Problem(number, "no \"event\"");
  const int64_t at_ns = std::llround(t->get<double>() * 1e9);
  last_ns_ = std::max(last_ns_, at_ns);
  const auto id = e.find("id");
  if (id == e.end() || !id->is_number_unsigned()) return {};  // not about one message
  const std::string& name = event->get_ref<const std::string&>();
  const auto detail = e.find("detail");
  const std::string text_detail =
      detail != e.end() && detail->is_string() ? detail->get<std::string>() : "";
  if (name == "publish") {
    kind_of_.emplace(id->get<uint64_t>(), text_detail.empty() ? "unknown" : text_detail);
    return {};
  }
  const End end = EndOf(name);
  if (name != "attempt" && end == End::kNone) return {};
  const auto worker = e.find("worker");
  const auto attempt = e.find("attempt");
  if (worker == e.end() || !worker->is_number_integer() || attempt == e.end() ||
      !attempt->is_number_integer()) {
    return Problem(number, "\"" + name + "\" without its worker and attempt");
  }
  const Key key{id->get<uint64_t>(), worker->get<int64_t>(), attempt->get<int64_t>()};
  if (name == "attempt") {
    Start(key, id->get<uint64_t>(), at_ns);
    return {};
  }
  return Settle(key, end, text_detail, at_ns, number);
}

void LiveEventsReader::Finish() {
  for (const auto& [key, index] : open_) set_.spans[index].end_ns = last_ns_;
}

}  // namespace

base::Status ReadLiveEvents(std::string_view text, const std::string& file, TelemetrySet* set) {
  if (text.size() > kTextBytesMax) return Failure{file + ": larger than 1024 MiB"};
  // Everything in a set only grows: a failed file is cut back to these sizes (contract (2)).
  const size_t kinds = set->kinds.size(), classes = set->classes.size();
  const size_t messages = set->messages.size(), spans = set->spans.size();
  const size_t files = set->files.size();
  set->files.push_back(file);
  LiveEventsReader reader(file, *set);
  size_t number = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (base::Status s = reader.Line(text.substr(start, end - start), ++number); !s) {
      set->kinds.resize(kinds);
      set->classes.resize(classes);
      set->messages.resize(messages);
      set->spans.resize(spans);
      set->files.resize(files);
      return s;
    }
    start = end + 1;
  }
  reader.Finish();
  return {};
}

base::Status ReadLiveEventsFile(const std::string& path, TelemetrySet* set) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Failure{path + ": cannot open"};
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<size_t>(in.gcount()));
    if (text.size() > kTextBytesMax) return Failure{path + ": larger than 1024 MiB"};
  }
  return ReadLiveEvents(text, path, set);
}

}  // namespace drainsim::telemetry
