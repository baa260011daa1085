#include "live/downstream_report.h"

namespace drainsim::live {

std::vector<std::string> DownstreamFigures(const config::Scenario& s) {
  if (!s.downstream) return {};
  return {"downstream_calls", "downstream_429s", "downstream_503s"};
}

std::vector<std::optional<double>> DownstreamSimulated(const model::Results& r,
                                                       const DownstreamWatch& watch) {
  return {static_cast<double>(r.downstream_calls), static_cast<double>(r.downstream_429s),
          static_cast<double>(watch.answered_503())};
}

std::vector<std::optional<double>> DownstreamLive(const LiveResult& l) {
  return {static_cast<double>(l.downstream_calls), static_cast<double>(l.downstream_429s),
          static_cast<double>(l.downstream_503s)};
}

void PrintDownstreamSummary(std::FILE* out, const LiveResult& r, const Plan& plan) {
  if (!r.has_downstream) return;
  std::fprintf(out,
               "downstream: %lld calls, %lld answered 429, %lld answered 503, %lld unanswered "
               "(%lld connections, %lld requests refused as malformed); simulated (same seed): "
               "%lld calls, %lld answered 429\n",
               static_cast<long long>(r.downstream_calls),
               static_cast<long long>(r.downstream_429s), static_cast<long long>(r.downstream_503s),
               static_cast<long long>(r.downstream_errors),
               static_cast<long long>(r.downstream_connections),
               static_cast<long long>(r.downstream_server_400s),
               static_cast<long long>(plan.simulated.downstream_calls),
               static_cast<long long>(plan.simulated.downstream_429s));
}

nlohmann::json DownstreamJson(const LiveResult& r, const Plan& plan) {
  if (!r.has_downstream) return nullptr;
  return {{"calls", r.downstream_calls},
          {"rate_limited_429", r.downstream_429s},
          {"unavailable_503", r.downstream_503s},
          {"unanswered", r.downstream_errors},
          {"server_bad_requests_400", r.downstream_server_400s},
          {"server_connections", r.downstream_connections},
          {"simulated",
           {{"calls", plan.simulated.downstream_calls},
            {"rate_limited_429", plan.simulated.downstream_429s}}}};
}

}  // namespace drainsim::live
