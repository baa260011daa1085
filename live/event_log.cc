#include "live/event_log.h"

namespace drainsim::live {

namespace {

// A JSON string's contents: a detail may hold a server's error text, with quotes and lines.
std::string JsonEscaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char hex[8];
          std::snprintf(hex, sizeof hex, "\\u%04x", static_cast<unsigned>(c));
          out += hex;
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace

EventLog::EventLog(const std::string& path)
    : file_(std::fopen(path.c_str(), "w")), start_(std::chrono::steady_clock::now()) {
  if (file_ != nullptr) std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

EventLog::~EventLog() {
  if (file_ != nullptr) std::fclose(file_);
}

double EventLog::Now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void EventLog::Write(const char* event, uint64_t id, int worker, int attempt,
                     const std::string& detail) {
  if (file_ == nullptr) return;
  char line[2048];  // the fields and a detail of 200 characters, each escaped to at most 6
  int n = id == kNoMessage
              ? std::snprintf(line, sizeof line, "{\"t_s\":%.6f,\"event\":\"%s\",\"id\":null",
                              Now(), event)
              : std::snprintf(line, sizeof line, "{\"t_s\":%.6f,\"event\":\"%s\",\"id\":%llu",
                              Now(), event, static_cast<unsigned long long>(id));
  if (worker >= 0 && n < static_cast<int>(sizeof line)) {
    n += std::snprintf(line + n, sizeof line - n, ",\"worker\":%d", worker);
  }
  if (attempt >= 0 && n < static_cast<int>(sizeof line)) {
    n += std::snprintf(line + n, sizeof line - n, ",\"attempt\":%d", attempt);
  }
  if (!detail.empty() && n < static_cast<int>(sizeof line)) {
    n += std::snprintf(line + n, sizeof line - n, ",\"detail\":\"%s\"",
                       JsonEscaped(detail.substr(0, 200)).c_str());
  }
  std::lock_guard<std::mutex> lock(mu_);
  std::fprintf(file_, "%s}\n", line);
}

void EventLog::Flush() {
  std::lock_guard<std::mutex> lock(mu_);
  if (file_ != nullptr) std::fflush(file_);
}

}  // namespace drainsim::live
