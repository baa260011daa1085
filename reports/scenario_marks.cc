#include "reports/scenario_marks.h"

#include <string_view>
#include <type_traits>
#include <variant>

#include "reports/metrics.h"
#include "sim/config/enum_names.h"

namespace drainsim::reports {

namespace {

using config::AckLossFault;
using config::BrokerRestartFault;
using config::BugFault;
using config::DbConnectionsFault;
using config::DbSlowdownFault;
using config::DownstreamRateLimitFault;
using config::ErrorClass;
using config::ErrorsFault;
using config::Fault;
using config::NameOf;
using config::PoisonFault;
using config::SyntheticFailuresFault;
using config::WorkerCrashFault;

std::string KindText(const std::optional<std::string>& kind) { return kind ? *kind : "every kind"; }
std::string ErrorText(ErrorClass error) { return std::string(NameOf(error)); }

// Appends rather than operator+ on a short literal: GCC 12 at -O3 warns falsely (-Wrestrict).
std::string Prefixed(std::string_view prefix, const std::string& text) {
  std::string out;
  out.reserve(prefix.size() + text.size());
  out.append(prefix);
  out.append(text);
  return out;
}

FaultSpan SpanOf(const Fault& fault, double run_until_s) {
  FaultSpan span;
  span.type = std::string(NameOf(config::TypeOf(fault)));
  std::visit(
      [&](const auto& f) {
        using F = std::decay_t<decltype(f)>;
        if constexpr (requires { f.window; }) {
          span.from_s = f.window.from.seconds();
          span.until_s = f.window.until.seconds();
        } else if constexpr (requires { f.from; }) {
          span.from_s = f.from.seconds();
        }
        if constexpr (std::is_same_v<F, ErrorsFault>) {
          span.detail =
              KindText(f.kind) + ", p=" + Decimal(f.probability) + ", " + ErrorText(f.error);
        } else if constexpr (std::is_same_v<F, SyntheticFailuresFault>) {
          span.detail = std::to_string(f.count) + " " + f.kind + ", " + ErrorText(f.error);
        } else if constexpr (std::is_same_v<F, PoisonFault>) {
          span.detail = (f.count ? std::to_string(*f.count) : "fraction " + Decimal(*f.fraction)) +
                        " " + f.kind + ", " + ErrorText(f.error);
        } else if constexpr (std::is_same_v<F, BugFault>) {
          span.detail = f.kind + ", fraction " + Decimal(f.fraction) + ", " + ErrorText(f.error) +
                        (f.fixed_at ? "" : ", never fixed");
          span.until_s = f.fixed_at ? f.fixed_at->seconds() : run_until_s;
        } else if constexpr (std::is_same_v<F, DbSlowdownFault>) {
          span.detail = Prefixed("x", Decimal(f.factor));
        } else if constexpr (std::is_same_v<F, DbConnectionsFault>) {
          span.detail = std::to_string(f.connections) + " connections";
        } else if constexpr (std::is_same_v<F, DownstreamRateLimitFault>) {
          span.detail = Decimal(f.rate_limit_per_s) + "/s, burst " + std::to_string(f.burst);
        } else if constexpr (std::is_same_v<F, WorkerCrashFault>) {
          span.detail = std::string(NameOf(f.point));
          if (f.at) {
            span.from_s = f.at->seconds();
            span.until_s.reset();
            span.detail += ", " + std::to_string(f.count) + " at once";
          } else {
            span.detail += ", " + Decimal(*f.rate_per_h) + "/h";
          }
        } else if constexpr (std::is_same_v<F, AckLossFault>) {
          span.detail = Prefixed("p=", Decimal(f.probability));
        } else if constexpr (std::is_same_v<F, BrokerRestartFault>) {
          span.from_s = f.at.seconds();
          // The span covers the whole unavailability; the detail names the recovery part.
          if (f.downtime.micros() > 0 || f.recovery.micros() > 0) {
            span.until_s = f.back().seconds();
            span.detail = Decimal(f.downtime.seconds()) + " s down";
            if (f.recovery.micros() > 0) {
              span.detail += " + " + Decimal(f.recovery.seconds()) + " s recovery";
            }
          }
        }
      },
      fault);
  return span;
}

}  // namespace

ScenarioMarks ScenarioMarksOf(const config::Scenario& scenario) {
  ScenarioMarks marks;
  marks.from_scenario = true;
  marks.run_until_s = scenario.run.until.seconds();
  if (scenario.alerts.oldest_age) marks.age_alert_s = scenario.alerts.oldest_age->seconds();
  for (const Fault& fault : scenario.faults) {
    marks.faults.push_back(SpanOf(fault, marks.run_until_s));
  }
  return marks;
}

}  // namespace drainsim::reports
