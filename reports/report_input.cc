#include "reports/report_input.h"

#include <string_view>

namespace drainsim::reports {

namespace {

bool ShellSafe(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      std::string_view("_./:=,+@%-").find(c) != std::string_view::npos;
    if (!safe) return false;
  }
  return true;
}

// POSIX single quotes: everything literal; a quote closes, escapes itself and reopens.
std::string ShellQuote(std::string_view text) {
  if (ShellSafe(text)) return std::string(text);
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

std::string ReproduceCommand(const std::string& scenario_path, uint64_t seed) {
  return "drainsim run " + ShellQuote(scenario_path) + " --seed " + std::to_string(seed);
}

}  // namespace drainsim::reports
