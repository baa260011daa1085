// The downstream API of drainsim live without a broker (live/downstream_api.h,
// live/downstream_server.h, live/downstream_client.h): the token bucket's refill, a 429's
// Retry-After in each style, 503 inside a downstream_outage window, a downstream_rate_limit
// window's bucket, and the HTTP server on loopback: keep-alive, 429 with its header, a malformed
// or oversized request answered 400 without harm to the server.
#include "live/downstream_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "live/downstream_api.h"
#include "live/downstream_client.h"
#include "live/plan.h"
#include "sim/scenario/load.h"

namespace downstream_server_test {
namespace {

using drainsim::config::RetryAfterFormat;
using drainsim::engine::Duration;
using drainsim::engine::Instant;
using drainsim::live::DownstreamApi;

drainsim::config::Scenario LoadDownstream() {
  auto loaded = drainsim::scenario::LoadScenarioFile(std::string(DRAINSIM_SOURCE_DIR) +
                                                     "/scenarios/live-downstream.json");
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

// 10/s, burst 2, no faults.
drainsim::config::Scenario Limited(RetryAfterFormat format) {
  auto s = LoadDownstream();
  s.downstream->rate_limit_per_s = 10;
  s.downstream->burst = 2;
  s.downstream->retry_after = format;
  s.faults.clear();
  return s;
}

Instant At(double seconds) {
  return Instant::Zero() + Duration::Micros(std::llround(seconds * 1e6));
}

// One raw request on a fresh connection; the whole answer until the server closes or 2 s pass.
std::string RawExchange(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  timeval timeout{2, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string answer;
  char chunk[512];
  for (ssize_t n; (n = ::recv(fd, chunk, sizeof chunk, 0)) > 0;) answer.append(chunk, n);
  ::close(fd);
  return answer;
}

}  // namespace

TEST_CASE("live downstream: the token bucket admits its burst, then refills at its rate",
          "[live]") {
  const auto scenario = Limited(RetryAfterFormat::kSeconds);
  DownstreamApi api(scenario, 14, 1'700'000'000);
  CHECK(api.Decide(At(0), 1).status == 200);
  CHECK(api.Decide(At(0), 2).status == 200);
  const auto limited = api.Decide(At(0.001), 3);
  CHECK(limited.status == 429);
  CHECK(limited.call_us == 0);        // a 429 takes no time
  CHECK(limited.retry_after == "1");  // the next token in 99 ms, rounded up to 1 s
  CHECK(api.Decide(At(0.0999), 4).status == 429);
  CHECK(api.Decide(At(0.1), 5).status == 200);  // one token every 100 ms
  CHECK(api.Decide(At(0.15), 6).status == 429);
  CHECK(api.Decide(At(10), 7).status == 200);  // idle: full again, burst 2 and no more
  CHECK(api.Decide(At(10), 8).status == 200);
  CHECK(api.Decide(At(10), 9).status == 429);
  // A time earlier than one already seen is taken as that one (threads race to the lock).
  CHECK(api.Decide(At(5), 10).status == 429);
}

TEST_CASE("live downstream: a 429's Retry-After in the scenario's style", "[live]") {
  SECTION("http_date: the IMF-fixdate of the epoch plus the whole second the bucket refills") {
    const auto scenario = Limited(RetryAfterFormat::kHttpDate);
    DownstreamApi api(scenario, 14, 1'700'000'000);
    api.Decide(At(2.5), 1);
    api.Decide(At(2.5), 2);
    const auto limited = api.Decide(At(2.5), 3);  // the next token at 2.6 s -> date 3 s
    REQUIRE(limited.status == 429);
    CHECK(limited.retry_after == "Tue, 14 Nov 2023 22:13:23 GMT");  // 1'700'000'003
    CHECK(drainsim::live::ParseImfFixdate(limited.retry_after) == 1'700'000'003);
    CHECK(drainsim::live::RetryAfterWaitUs(limited.retry_after, 2'500'000, 1'700'000'000) ==
          500'000);  // the model's wait: date 3 s - now 2.5 s
  }
  SECTION("seconds: delay-seconds, waited whole") {
    CHECK(drainsim::live::RetryAfterWaitUs("2", 123, 0) == 2'000'000);
    CHECK(!drainsim::live::RetryAfterWaitUs("soon", 0, 0).has_value());
  }
  SECTION("none: no header at all") {
    const auto scenario = Limited(RetryAfterFormat::kNone);
    DownstreamApi api(scenario, 14, 0);
    api.Decide(At(0), 1);
    api.Decide(At(0), 2);
    const auto limited = api.Decide(At(0), 3);
    CHECK(limited.status == 429);
    CHECK(limited.retry_after.empty());
  }
}

TEST_CASE(
    "live downstream: 503 inside a downstream_outage window, the bucket changed inside a "
    "downstream_rate_limit window",
    "[live]") {
  // live-downstream.json: 40/s burst 10; 10/s burst 2 over [3 s, 6 s); outage over [8 s, 8.5 s).
  const auto scenario = LoadDownstream();
  DownstreamApi api(scenario, 14, 0);
  CHECK(api.Decide(At(7.999), 1).status == 200);
  const auto down = api.Decide(At(8), 2);
  CHECK(down.status == 503);
  CHECK(down.call_us >= 15'000);  // a 503 comes after the call's duration (15-40 ms)
  CHECK(down.call_us <= 40'000);
  CHECK(api.Decide(At(8.499), 3).status == 503);
  CHECK(api.Decide(At(8.5), 4).status == 200);

  DownstreamApi limited(scenario, 14, 0);
  int admitted = 0;
  for (int i = 0; i < 20; ++i) admitted += limited.Decide(At(3.0), 100 + i).status == 200;
  CHECK(admitted == 2);  // the window's burst: the 10 tokens held are capped at 2
  CHECK(limited.Decide(At(3.05), 200).status == 429);
  CHECK(limited.Decide(At(3.1), 201).status == 200);  // refilled at 10/s
  int after = 0;
  for (int i = 0; i < 20; ++i) after += limited.Decide(At(6.5), 300 + i).status == 200;
  CHECK(after == 10);  // the scenario's own bucket again: 40/s, burst 10
}

TEST_CASE("live downstream: the same call of the same run takes the same time", "[live]") {
  auto s = LoadDownstream();
  DownstreamApi a(s, 14, 0), b(s, 14, 0);
  const uint64_t key = drainsim::live::CallKey(7, 2, 0);
  CHECK(a.Decide(At(0), key).call_us == b.Decide(At(0.001), key).call_us);
  CHECK(drainsim::live::CallKey(7, 2, 0) != drainsim::live::CallKey(7, 1, 0));
}

TEST_CASE("live downstream: the HTTP server on loopback, keep-alive, 400 for a malformed request",
          "[live]") {
  // 1/s, burst 2: the third call within a second is a 429, however slow this machine is.
  auto s = Limited(RetryAfterFormat::kSeconds);
  s.downstream->rate_limit_per_s = 1;
  drainsim::live::DownstreamServer server(s, 14, 4);
  const drainsim::base::Status started = server.Start();
  REQUIRE(started.ok());
  REQUIRE(server.port() > 0);
  server.SetStart(std::chrono::steady_clock::now());
  drainsim::live::DownstreamClient client(server.port());
  const auto timeout = std::chrono::milliseconds(5000);
  CHECK(client.Call(drainsim::live::DownstreamRequest(1, 1, 0), timeout).status == 200);
  CHECK(client.Call(drainsim::live::DownstreamRequest(2, 1, 0), timeout).status == 200);
  const auto limited = client.Call(drainsim::live::DownstreamRequest(3, 1, 0), timeout);
  CHECK(limited.status == 429);
  CHECK(limited.retry_after == "1");
  CHECK(client.connects() == 1);  // one kept-alive connection for the three

  const std::string garbage = RawExchange(server.port(), "BREW /pot HTTP/1.1\r\n\r\n");
  CHECK(garbage.rfind("HTTP/1.1 400 Bad Request\r\n", 0) == 0);
  CHECK(RawExchange(server.port(), "GET /call?id=1&attempt=x&n=0 HTTP/1.1\r\n\r\n")
            .rfind("HTTP/1.1 400", 0) == 0);
  CHECK(RawExchange(server.port(),
                    "GET /call?id=1&attempt=1&n=0 HTTP/1.1\r\nContent-Length: "
                    "5\r\n\r\nhello")
            .rfind("HTTP/1.1 400", 0) == 0);
  CHECK(RawExchange(server.port(),
                    std::string(drainsim::live::DownstreamServer::kRequestBytesMax + 100, 'a'))
            .rfind("HTTP/1.1 400", 0) == 0);
  // Still serving: the kept-alive client gets an answer (200 or 429, by how much time passed).
  const int last = client.Call(drainsim::live::DownstreamRequest(4, 1, 0), timeout).status;
  CHECK((last == 200 || last == 429));
  CHECK(client.connects() == 1);
  server.Stop();
  const auto counts = server.counts();
  CHECK(counts.bad_400 == 4);
  CHECK(counts.ok_200 + counts.rate_limited_429 == 4);
  CHECK(counts.ok_200 >= 2);
  CHECK(counts.connections == 5);
}

TEST_CASE("live downstream: Retry-After with republish waits in whole-second delay queues",
          "[live]") {
  auto s = LoadDownstream();
  CHECK(drainsim::live::CheckLiveSupport(s).empty());
  CHECK(drainsim::live::RetryAfterLevelsMs(s).empty());  // sleep_in_consumer: any wait
  s.retry.delivery = drainsim::config::RetryDelivery::kRepublish;
  CHECK(drainsim::live::CheckLiveSupport(s).empty());
  // The slowest rate is the fault's 10/s: a token within 0.1 s, so Retry-After is always 1.
  CHECK(drainsim::live::RetryAfterLevelsMs(s) == std::vector<int64_t>{1000});
  std::get<drainsim::config::DownstreamRateLimitFault>(s.faults[0]).rate_limit_per_s = 0.3;
  CHECK(drainsim::live::RetryAfterLevelsMs(s) == std::vector<int64_t>{1000, 2000, 3000, 4000});
  std::get<drainsim::config::DownstreamRateLimitFault>(s.faults[0]).rate_limit_per_s = 0.01;
  auto problems = drainsim::live::CheckLiveSupport(s);  // 100 s: more than 32 delay queues
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].pointer == "/retry/classes/rate_limited/honor_retry_after");
  std::get<drainsim::config::DownstreamRateLimitFault>(s.faults[0]).rate_limit_per_s = 10;
  s.downstream->retry_after = RetryAfterFormat::kHttpDate;  // waits of any length: refused
  problems = drainsim::live::CheckLiveSupport(s);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].pointer == "/retry/classes/rate_limited/honor_retry_after");
  CHECK(drainsim::live::RetryAfterLevelsMs(s).empty());
}

}  // namespace downstream_server_test
