#include "reports/fit_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "reports/metrics.h"

namespace drainsim::reports {

namespace {

using Json = nlohmann::json;
using experiments::FitResult;
using experiments::Interval95;
using experiments::KindFit;

Json FixedJson(double value) { return Fixed(value); }

constexpr const char* kFailAfterMethod = "mean of failed attempts' durations, Student t 95%";

Json Pair(const Interval95& i) { return Json::array({FixedJson(i.low), FixedJson(i.high)}); }

// The loader's cap on `method` (sim/config/fitted.h: at most 200 bytes). The methods written
// here stay far below it for any real data (the longest, a failure window's, is about 150
// bytes); absurd numbers (a dispersion index of 1e15) are cut rather than make the fragment one
// the loader refuses.
constexpr size_t kMethodBytesMax = 200;

Json Provenance(const FitResult& fit, int64_t n, const char* method) {
  return {{"from", fit.from}, {"n", n}, {"method", std::string(method).substr(0, kMethodBytesMax)}};
}

// A fitted duration as the scenario writes a distribution, with its provenance.
Json DurationJson(const FitResult& fit, const experiments::HandlerFit& h) {
  Json dist;
  if (h.chose_lognormal) {
    const experiments::LognormalFit& l = *h.lognormal;
    dist = {{"lognormal", {{"mu", FixedJson(l.mu)}, {"sigma", FixedJson(l.sigma)}}}};
    dist["fitted"] = Provenance(fit, h.n, "lognormal, maximum likelihood");
    dist["fitted"]["ks"] = FixedJson(l.ks);
    dist["fitted"]["interval"] = {{"mu", Pair(l.mu_interval)}, {"sigma", Pair(l.sigma_interval)}};
  } else {
    Json rows = Json::array();
    for (const auto& [p, v] : h.empirical->points) {
      rows.push_back(Json::array({FixedJson(p), FixedJson(v)}));
    }
    dist = {{"empirical", rows}};
    dist["fitted"] = Provenance(fit, h.n, "empirical quantiles");
    dist["fitted"]["ks"] = FixedJson(h.empirical->ks);
  }
  return dist;
}

// The handler time as one step, or, when spans carry database statements, the statements
// (db_ops of db_op_ms) and the rest of the handler's time (cpu_ms).
Json HandlerJson(const FitResult& fit, const KindFit& k) {
  Json handler = {{"validate_ms", {{"constant", 0}}},
                  {"db_ops", 0},
                  {"downstream_calls", 0},
                  {"cpu_ms", DurationJson(fit, k.handler)}};
  if (k.statements && k.statements->latency.empirical && k.statements->per_attempt > 0) {
    handler["db_ops"] = k.statements->per_attempt;
    handler["db_op_ms"] = DurationJson(fit, k.statements->latency);
  }
  return handler;
}

std::string Seconds(double s) { return Decimal(s, 3); }

// The arrival test in words: what the summary prints and each producer's method carries.
std::string DispersionWords(const experiments::ArrivalDispersion& d) {
  char text[160];
  std::snprintf(text, sizeof text,
                "dispersion index %.4f over %lld bins of %.3f s, chi-squared p %.6f", d.index,
                static_cast<long long>(d.bins), d.bin_s, d.p_value);
  return text;
}

std::string ArrivalMethod(const KindFit& k, size_t segment) {
  if (k.dispersion.regular) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "constant rate, Garwood exact 95%% (conservative); more even than Poisson: "
                  "dispersion index %.4f, lower-tail p %.2e",
                  k.dispersion.index, k.dispersion.p_value_low);
    return text;
  }
  std::string method = "Poisson rate, Garwood exact 95%";
  if (!k.dispersion.tested) return method;
  if (k.arrivals.size() == 1) return method + "; constant: " + DispersionWords(k.dispersion);
  return method + "; segment " + std::to_string(segment + 1) + " of " +
         std::to_string(k.arrivals.size()) + " by binary segmentation; " +
         DispersionWords(k.dispersion);
}

// "  WHAT (ms), n N: lognormal ...; empirical ...\n    chosen: ...\n"
std::string DurationLines(const char* what, const experiments::HandlerFit& h) {
  char line[512];
  std::string text = std::string("  ") + what + " (ms), n " + std::to_string(h.n) + ":";
  if (h.lognormal) {
    const experiments::LognormalFit& l = *h.lognormal;
    std::snprintf(line, sizeof line,
                  " lognormal mu %.4f [%.4f, %.4f] sigma %.4f [%.4f, %.4f] KS %.4f;", l.mu,
                  l.mu_interval.low, l.mu_interval.high, l.sigma, l.sigma_interval.low,
                  l.sigma_interval.high, l.ks);
    text += line;
  }
  if (h.empirical) {
    std::snprintf(line, sizeof line, " empirical (%zu rows) KS %.4f; 5%% critical %.4f",
                  h.empirical->points.size(), h.empirical->ks, h.ks_critical);
    text += line;
  }
  return text + "\n    chosen: " + h.why + "\n";
}

std::string StatementLines(const experiments::StatementFit& st) {
  char line[256];
  std::snprintf(line, sizeof line,
                "  database statements: %lld (%lld failed, left out); %lld per successful "
                "attempt (%.1f%% of them)\n",
                static_cast<long long>(st.spans), static_cast<long long>(st.failed),
                static_cast<long long>(st.per_attempt), 100 * st.per_attempt_share);
  return line + DurationLines("statement latency", st.latency);
}

// "    fails after (ms): mean M [low, high], n N\n": the class's fail_after_ms.
std::string FailAfterLine(const experiments::MeanFit& f) {
  char line[160];
  if (f.interval) {
    std::snprintf(line, sizeof line, "    fails after (ms): mean %.3f [%.3f, %.3f], n %lld\n",
                  f.mean, f.interval->low, f.interval->high, static_cast<long long>(f.n));
  } else {
    std::snprintf(line, sizeof line, "    fails after (ms): %.3f, n %lld (no interval)\n", f.mean,
                  static_cast<long long>(f.n));
  }
  return line;
}

// The homogeneity test in words: what the summary prints and each window's method carries.
std::string HomogeneityWords(const experiments::FailureHomogeneity& h) {
  char text[160];
  std::snprintf(text, sizeof text, "homogeneity chi-squared %.6g over %lld bins of %.3f s, p %.6f",
                h.statistic, static_cast<long long>(h.bins), h.bin_s, h.p_value);
  return text;
}

// A class's errors faults (the fragment's): one over the whole run, or, when its probability
// changed over time, one per window with failures, from_s to until_s (the last one to the end of
// the run, as its errors went on at the data's end).
void AddErrorsFaults(const FitResult& fit, const KindFit& k, const experiments::ClassFit& c,
                     Json& faults) {
  const bool windowed = c.windows.size() > 1;
  const size_t count = windowed ? c.windows.size() : 1;
  for (size_t i = 0; i < count; ++i) {
    Json fault = {{"type", "errors"}, {"kind", k.kind}, {"error", c.error_class}};
    if (!windowed) {
      fault["probability"] = FixedJson(c.probability);
      fault["fitted"] = Provenance(fit, c.trials, "conditional on earlier classes, Wilson 95%");
      fault["fitted"]["interval"] = Pair(c.wilson);
    } else {
      const experiments::ProbabilityWindow& w = c.windows[i];
      if (w.failures == 0) continue;  // no errors fault is the window's probability 0
      fault["probability"] = FixedJson(w.probability);
      fault["from_s"] = FixedJson(w.from_s);
      if (i + 1 < count) fault["until_s"] = FixedJson(w.until_s);
      const std::string method = "conditional on earlier classes, Wilson 95%; window " +
                                 std::to_string(i + 1) + " of " + std::to_string(count) +
                                 " by binary segmentation; " + HomogeneityWords(c.homogeneity);
      fault["fitted"] = Provenance(fit, w.trials, method.c_str());
      fault["fitted"]["interval"] = Pair(w.wilson);
    }
    const experiments::MeanFit& after = c.fail_after_ms;
    fault["fail_after_ms"] = FixedJson(after.mean);
    fault["fail_after_fitted"] = Provenance(fit, after.n, kFailAfterMethod);
    if (after.interval) fault["fail_after_fitted"]["interval"] = Pair(*after.interval);
    faults.push_back(fault);
  }
}

// "    homogeneity ...: ..." and each window's line: a class's probability over time.
std::string WindowLines(const experiments::ClassFit& c) {
  if (!c.homogeneity.tested) return "";
  std::string text =
      "    over time: " + HomogeneityWords(c.homogeneity) +
      (c.homogeneity.rejected ? ": a constant probability is rejected at 5%; " +
                                    std::to_string(std::max<size_t>(1, c.windows.size())) +
                                    " window(s) by binary segmentation\n"
                              : ": a constant probability is not rejected at 5%\n");
  char line[200];
  for (const experiments::ProbabilityWindow& w : c.windows) {
    std::snprintf(line, sizeof line, "      window [%s, %s) s: %lld of %lld, p %.5f [%.5f, %.5f]\n",
                  Seconds(w.from_s).c_str(), Seconds(w.until_s).c_str(),
                  static_cast<long long>(w.failures), static_cast<long long>(w.trials),
                  w.probability, w.wilson.low, w.wilson.high);
    text += line;
  }
  return text;
}

// Where a kind's arrivals came from when a metric series gave them (experiments/fit_series.h).
std::string SeriesLine(const KindFit& k) {
  char line[160];
  std::snprintf(line, sizeof line, ": %lld points every %s s (",
                static_cast<long long>(k.series_steps), Seconds(k.series_step_s).c_str());
  return "  arrivals from the series " + k.arrivals_from + "'s inflow_per_s" + line +
         (k.spans > 0 ? "replacing the spans': the series counts every message" : "no spans") +
         ")\n";
}

}  // namespace

std::string FitFragment(const FitResult& fit) {
  Json kinds = Json::object();
  Json faults = Json::array();
  Json producers = Json::array();
  for (const KindFit& k : fit.kinds) {
    if (k.handler.empirical) kinds[k.kind] = {{"handler", HandlerJson(fit, k)}};
    for (const experiments::ClassFit& c : k.classes) {
      if (c.in_scenario) AddErrorsFaults(fit, k, c, faults);
    }
    for (size_t i = 0; i < k.arrivals.size(); ++i) {
      const experiments::ArrivalWindow& w = k.arrivals[i];
      if (w.arrivals == 0) continue;
      Json schedule = {{"rate_per_s", FixedJson(w.rate_per_s)},
                       {"from_s", FixedJson(w.from_s)},
                       {"until_s", FixedJson(w.until_s)}};
      schedule["fitted"] = Provenance(fit, w.arrivals, ArrivalMethod(k, i).c_str());
      if (!k.arrivals_from.empty()) schedule["fitted"]["from"] = k.arrivals_from;
      schedule["fitted"]["interval"] = Pair(w.poisson);
      // Regular arrivals: a fixed-pace producer (experiments/fit_arrivals.h, rule (5)).
      const char* shape = k.dispersion.regular ? "constant" : "poisson";
      producers.push_back({{"kind", k.kind}, {shape, schedule}});
    }
  }
  const Json out = {{"kinds", kinds}, {"faults", faults}, {"producers", producers}};
  return out.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string FitSummary(const FitResult& fit) {
  char line[512];
  std::string text;
  if (!fit.files.empty()) {
    text += "fit: " + fit.from + ": " + std::to_string(fit.spans) + " process spans (" +
            std::to_string(fit.spans_skipped) + " other spans skipped)\n";
  }
  if (fit.statements > 0) {
    text += std::to_string(fit.statements) + " database statement spans (" +
            std::to_string(fit.statements_unmatched) +
            " whose parent is no process span read: left out)\n";
  }
  if (fit.window_s > fit.window_s_asked && fit.window_s_asked > 0) {
    text += "arrival windows widened from " + Decimal(fit.window_s_asked, 3) + " s to " +
            Decimal(fit.window_s, 3) + " s: at most 10000 windows\n";
  }
  for (const KindFit& k : fit.kinds) {
    std::snprintf(line, sizeof line,
                  "kind %s: %lld spans (%lld still running at the end, left out), %lld messages, "
                  "%.3f attempts per message (max %lld; %lld retried)\n",
                  k.kind.c_str(), static_cast<long long>(k.spans),
                  static_cast<long long>(k.censored), static_cast<long long>(k.messages),
                  k.attempts_per_message, static_cast<long long>(k.attempts_per_message_max),
                  static_cast<long long>(k.messages_retried));
    // A kind only a metric series gave (no span): its arrivals alone, no empty span figures.
    text += k.spans > 0 ? std::string(line) : "kind " + k.kind + ": no spans\n";
    if (k.spans > 0) {
      text += DurationLines(k.statements ? "handler time less its statements" : "handler time",
                            k.handler);
    }
    for (const experiments::ClassFit& c : k.classes) {
      std::snprintf(line, sizeof line,
                    "  failures %s: %lld of %lld attempts, p %.5f [%.5f, %.5f] (share of all "
                    "attempts %.5f)%s\n",
                    c.error_class.c_str(), static_cast<long long>(c.failures),
                    static_cast<long long>(c.trials), c.probability, c.wilson.low, c.wilson.high,
                    c.share,
                    c.in_scenario ? "" : "; not a scenario error class: not in the fragment");
      text += line;
      text += FailAfterLine(c.fail_after_ms);
      text += WindowLines(c);
    }
    if (k.statements) text += StatementLines(*k.statements);
    if (k.dispersion.tested) {
      text += "  arrival rate: " + DispersionWords(k.dispersion) +
              (k.dispersion.rejected
                   ? ": a constant rate is rejected at 5%; " + std::to_string(k.arrivals.size()) +
                         " segment(s) by binary segmentation\n"
                   : ": a constant rate is not rejected at 5%\n");
      if (k.dispersion.regular) {
        std::snprintf(line, sizeof line,
                      "  arrivals more even than Poisson (lower-tail p %.2e < 0.001): a constant "
                      "producer\n",
                      k.dispersion.p_value_low);
        text += line;
      }
    }
    if (!k.arrivals_from.empty()) text += SeriesLine(k);
    for (const experiments::ArrivalWindow& w : k.arrivals) {
      std::snprintf(line, sizeof line, "  arrivals [%s, %s) s: %lld, %.4f/s [%.4f, %.4f]\n",
                    Seconds(w.from_s).c_str(), Seconds(w.until_s).c_str(),
                    static_cast<long long>(w.arrivals), w.rate_per_s, w.poisson.low,
                    w.poisson.high);
      text += line;
    }
  }
  return text;
}

}  // namespace drainsim::reports
