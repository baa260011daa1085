#include "chaos/seed_report.h"

#include <algorithm>

namespace drainsim::chaos {

namespace {

std::string OneLine(std::string_view text) {
  std::string line(text);
  std::replace(line.begin(), line.end(), '\n', ' ');
  return line;
}

}  // namespace

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kTimeout:
      return "timeout";
    case Verdict::kLiveness:
      return "liveness";
    case Verdict::kCorrectness:
      return "correctness";
    case Verdict::kCrash:
      return "crash";
  }
  return "crash";
}

void SeedReport::Fail(Verdict worse, std::string_view problem) {
  verdict = std::max(verdict, worse);
  problems.push_back(OneLine(problem));
}

void SeedReport::Note(std::string_view detail) { details.push_back(OneLine(detail)); }

// One record per line: "V <verdict>", "P <problem>", "D <detail>", and "C <where>: <condition>"
// from the check-failure hook (isolate.cc). The seed is not sent: the parent knows which child
// it forked.
std::string EncodeSeedReport(const SeedReport& report) {
  std::string text = std::string("V ") + VerdictName(report.verdict) + "\n";
  for (const std::string& p : report.problems) text += "P " + p + "\n";
  for (const std::string& d : report.details) text += "D " + d + "\n";
  return text;
}

SeedReport DecodeSeedReport(uint64_t seed, std::string_view text) {
  SeedReport report;
  report.seed = seed;
  bool has_verdict = false;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    if (end == std::string_view::npos) break;  // a record cut short by a dying child
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(end + 1);
    if (line.size() < 2 || line[1] != ' ') continue;
    const std::string_view body = line.substr(2);
    if (line[0] == 'V') {
      for (int v = 0; v < kVerdictCount; ++v) {
        if (body == VerdictName(static_cast<Verdict>(v))) {
          report.verdict = static_cast<Verdict>(v);
          has_verdict = true;
        }
      }
    } else if (line[0] == 'P') {
      report.problems.emplace_back(body);
    } else if (line[0] == 'D') {
      report.details.emplace_back(body);
    } else if (line[0] == 'C') {
      report.Fail(Verdict::kCorrectness, "internal check failed at " + std::string(body));
      has_verdict = true;
    }
  }
  // Why there is none is for the caller to say: it knows how the child ended.
  if (!has_verdict) report.verdict = Verdict::kCrash;
  return report;
}

}  // namespace drainsim::chaos
