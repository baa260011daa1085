#include "live/downstream_api.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "live/retry_plan.h"
#include "sim/base/check.h"
#include "sim/engine/rng.h"
#include "sim/model/retry_after.h"

namespace drainsim::live {

namespace {

bool HonouredWithRepublish(const config::Scenario& s) {
  const config::ClassPolicy& limited = s.retry.classes.For(config::ErrorClass::kRateLimited);
  return s.downstream && s.retry.delivery == config::RetryDelivery::kRepublish &&
         limited.action == config::ClassAction::kRetry && limited.attempts_max >= 2 &&
         limited.honor_retry_after;
}

}  // namespace

std::vector<int64_t> RetryAfterLevelsMs(const config::Scenario& s) {
  if (!HonouredWithRepublish(s) ||
      s.downstream->retry_after != config::RetryAfterFormat::kSeconds) {
    return {};
  }
  std::optional<double> slowest = s.downstream->rate_limit_per_s;
  for (const config::Fault& fault : s.faults) {
    if (const auto* limit = std::get_if<config::DownstreamRateLimitFault>(&fault)) {
      slowest = std::min(slowest.value_or(limit->rate_limit_per_s), limit->rate_limit_per_s);
    }
  }
  if (!slowest) return {};  // no rate limit: never a 429
  // One token's time at the bucket's quantized rate, in whole µs (TokenBucket::NextAvailable),
  // then whole seconds up. Capped: a longer list is refused anyway.
  const model::TokenBucket bucket(*slowest, 1);
  const double token_us = std::ceil(1e6 / bucket.rate_per_s());
  const int64_t seconds_max =
      static_cast<int64_t>(std::min(std::ceil(token_us / 1e6), double{kDelayLevelsMax + 1}));
  std::vector<int64_t> levels;
  for (int64_t n = 1; n <= seconds_max; ++n) levels.push_back(n * 1000);
  return levels;
}

std::vector<scenario::Problem> CheckDownstreamSupport(const config::Scenario& s,
                                                      std::vector<bool>* handled) {
  std::vector<scenario::Problem> out;
  handled->resize(std::max(handled->size(), s.faults.size()), false);
  for (size_t i = 0; i < s.faults.size(); ++i) {
    const config::FaultType type = config::TypeOf(s.faults[i]);
    if (type == config::kTypeOf<config::DownstreamOutageFault> ||
        type == config::kTypeOf<config::DownstreamRateLimitFault>) {
      (*handled)[i] = true;
    }
  }
  if (!s.downstream) return out;
  if (HonouredWithRepublish(s) &&
      s.downstream->retry_after == config::RetryAfterFormat::kHttpDate) {
    out.push_back({"/retry/classes/rate_limited/honor_retry_after",
                   "an http_date Retry-After honoured with retry.delivery republish is not "
                   "supported by drainsim live yet (its waits are not whole seconds: no delay "
                   "queue per level; seconds, sleep_in_consumer and requeue are)"});
  } else if (RetryAfterLevelsMs(s).size() > kDelayLevelsMax) {
    out.push_back({"/retry/classes/rate_limited/honor_retry_after",
                   "a Retry-After honoured with retry.delivery republish that can exceed " +
                       std::to_string(kDelayLevelsMax) +
                       " s (one delay queue per second) is not supported by drainsim live"});
  }
  if (s.workers.count * s.workers.concurrency > kDownstreamSlotsMax) {
    out.push_back({"/workers/count", "more than " + std::to_string(kDownstreamSlotsMax) +
                                         " worker slots with a downstream API is not supported "
                                         "by drainsim live (a server thread per slot)"});
  }
  return out;
}

uint64_t CallKey(uint64_t id, int attempt, int call) {
  return (id << 24) ^ (static_cast<uint64_t>(attempt) << 10) ^ static_cast<uint64_t>(call);
}

namespace {
const char* const kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                               "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
}  // namespace

std::string ImfFixdate(int64_t utc_s) {
  const std::time_t t = static_cast<std::time_t>(utc_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[40];
  std::snprintf(text, sizeof text, "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[tm.tm_wday],
                tm.tm_mday, kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                tm.tm_sec);
  return text;
}

std::optional<int64_t> ParseImfFixdate(const std::string& text) {
  char day[4] = {}, month[4] = {}, zone[4] = {};
  int mday = 0, year = 0, hour = 0, minute = 0, second = 0, used = 0;
  if (text.size() != 29 ||
      std::sscanf(text.c_str(), "%3[A-Za-z], %d %3s %d %d:%d:%d %3s%n", day, &mday, month, &year,
                  &hour, &minute, &second, zone, &used) != 8 ||
      used != 29 || std::string(zone) != "GMT") {
    return std::nullopt;
  }
  std::tm tm{};
  tm.tm_mon = -1;
  for (int m = 0; m < 12; ++m) {
    if (std::string(month) == kMonths[m]) tm.tm_mon = m;
  }
  if (tm.tm_mon < 0 || mday < 1 || mday > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  tm.tm_mday = mday;
  tm.tm_year = year - 1900;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  return static_cast<int64_t>(timegm(&tm));
}

DownstreamApi::DownstreamApi(const config::Scenario& s, uint64_t seed, int64_t epoch_utc_s)
    : api_(*s.downstream), seed_(seed), epoch_utc_s_(epoch_utc_s), call_(api_.call_ms, 1000.0) {
  if (api_.rate_limit_per_s) bucket_.emplace(*api_.rate_limit_per_s, api_.burst);
  for (const config::Fault& fault : s.faults) {
    if (const auto* limit = std::get_if<config::DownstreamRateLimitFault>(&fault)) {
      edges_.push_back({limit->window.from, true, limit->rate_limit_per_s, limit->burst});
      edges_.push_back({limit->window.until, false, 0, 1});
    } else if (const auto* outage = std::get_if<config::DownstreamOutageFault>(&fault)) {
      outages_.emplace_back(outage->window.from, outage->window.until);
    }
  }
  // At one instant an end comes before a start: back-to-back windows hand over.
  std::stable_sort(edges_.begin(), edges_.end(), [](const Edge& a, const Edge& b) {
    return a.at < b.at || (a.at == b.at && !a.open && b.open);
  });
}

void DownstreamApi::ApplyEdges(engine::Instant now) {
  for (; next_edge_ < edges_.size() && edges_[next_edge_].at <= now; ++next_edge_) {
    const Edge& e = edges_[next_edge_];
    if (e.open) {
      if (bucket_) {
        bucket_->SetRate(e.at, e.rate_per_s, e.burst);
      } else {
        bucket_.emplace(e.rate_per_s, e.burst);  // full at its start, as the model's
      }
    } else if (api_.rate_limit_per_s) {
      bucket_->SetRate(e.at, *api_.rate_limit_per_s, api_.burst);
    } else {
      bucket_.reset();
    }
  }
}

bool DownstreamApi::InOutage(engine::Instant now) const {
  for (const auto& [from, until] : outages_) {
    if (from <= now && now < until) return true;
  }
  return false;
}

DownstreamAnswer DownstreamApi::Decide(engine::Instant now, uint64_t call_key) {
  now = std::max(now, latest_);  // invariant (1)
  latest_ = now;
  ApplyEdges(now);
  DownstreamAnswer answer;
  engine::Rng rng = engine::Rng::ForStream(seed_, engine::StreamId("live-downstream"), call_key);
  const int64_t call_us = call_.Sample(rng).micros();
  if (InOutage(now)) {
    answer.status = 503;
    answer.call_us = call_us;
    return answer;
  }
  if (bucket_ && !bucket_->TryTake(now)) {
    answer.status = 429;
    if (api_.retry_after != config::RetryAfterFormat::kNone) {
      const model::RetryAfterAnswer ra = model::AnswerRetryAfter(
          api_.retry_after, now, bucket_->NextAvailable(now), api_.clock_skew);
      answer.retry_after_s = ra.header_value_s;
      answer.retry_after = api_.retry_after == config::RetryAfterFormat::kSeconds
                               ? std::to_string(ra.header_value_s)
                               : ImfFixdate(epoch_utc_s_ + ra.header_value_s);
    }
    return answer;
  }
  answer.call_us = call_us;
  return answer;
}

int64_t DownstreamApi::tokens() const { return bucket_ ? bucket_->WholeTokens(latest_) : -1; }

}  // namespace drainsim::live
