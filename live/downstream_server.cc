#include "live/downstream_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <map>
#include <optional>

namespace drainsim::live {

namespace {

using Clock = std::chrono::steady_clock;

int64_t EpochUtcNow() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string LowerHeader(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool SendAll(int fd, const std::string& text) {
  size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n = ::send(fd, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

std::optional<uint64_t> Digits(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  return value;
}

struct Request {
  uint64_t id = 0;
  int attempt = 0;
  int call = 0;
  bool close = false;  // Connection: close, or HTTP/1.0
};

// The request line and headers of one request (without the blank line); nullopt: a 400.
std::optional<Request> ParseHead(const std::string& head) {
  const size_t eol = head.find("\r\n");
  const std::string line = head.substr(0, eol);
  const size_t sp1 = line.find(' ');
  const size_t sp2 = sp1 == std::string::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string::npos || line.find(' ', sp2 + 1) != std::string::npos) return {};
  const std::string method = line.substr(0, sp1);
  const std::string target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string version = line.substr(sp2 + 1);
  if (method != "GET" || (version != "HTTP/1.1" && version != "HTTP/1.0")) return {};
  const std::string prefix = "/call?";
  if (target.compare(0, prefix.size(), prefix) != 0) return {};
  std::map<std::string, std::string> query;
  size_t at = prefix.size();
  while (at <= target.size()) {
    const size_t amp = std::min(target.find('&', at), target.size());
    const std::string pair = target.substr(at, amp - at);
    const size_t eq = pair.find('=');
    if (eq == std::string::npos || !query.emplace(pair.substr(0, eq), pair.substr(eq + 1)).second) {
      return {};
    }
    at = amp + 1;
  }
  Request r;
  const auto id = Digits(query["id"]);
  const auto attempt = Digits(query["attempt"]);
  const auto call = Digits(query["n"]);
  if (query.size() != 3 || !id || !attempt || !call || *attempt < 1 || *attempt > 100000 ||
      *call > 100000) {
    return {};
  }
  r.id = *id;
  r.attempt = static_cast<int>(*attempt);
  r.call = static_cast<int>(*call);
  r.close = version == "HTTP/1.0";
  for (size_t from = eol; from != std::string::npos && from < head.size();) {
    const size_t start = from + 2;
    const size_t end = head.find("\r\n", start);
    const std::string header =
        LowerHeader(head.substr(start, end == std::string::npos ? end : end - start));
    from = end;
    if (header.rfind("transfer-encoding:", 0) == 0) return {};
    if (header.rfind("content-length:", 0) == 0 &&
        header.find_first_of("123456789") != std::string::npos) {
      return {};  // a body: not the form served
    }
    if (header.rfind("connection:", 0) == 0 && header.find("close") != std::string::npos) {
      r.close = true;
    }
  }
  return r;
}

const char* Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 429:
      return "Too Many Requests";
    case 503:
      return "Service Unavailable";
    default:
      return "Bad Request";
  }
}

std::string Response(int status, const std::string& retry_after, bool close) {
  std::string text = "HTTP/1.1 " + std::to_string(status) + " " + Reason(status) + "\r\n";
  if (!retry_after.empty()) text += "Retry-After: " + retry_after + "\r\n";
  text += "Content-Length: 0\r\n";
  if (close) text += "Connection: close\r\n";
  return text + "\r\n";
}

}  // namespace

std::string DownstreamRequest(uint64_t id, int attempt, int call) {
  return "GET /call?id=" + std::to_string(id) + "&attempt=" + std::to_string(attempt) +
         "&n=" + std::to_string(call) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
}

DownstreamServer::DownstreamServer(const config::Scenario& scenario, uint64_t seed,
                                   int connections_max)
    : epoch_utc_s_(EpochUtcNow()),
      api_(scenario, seed, epoch_utc_s_),
      connections_max_(connections_max) {
  start_ns_ = Clock::now().time_since_epoch().count();
}

DownstreamServer::~DownstreamServer() { Stop(); }

base::Status DownstreamServer::Start() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_fd_, 64) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    const std::string why = std::string("downstream server: ") + std::strerror(errno);
    if (listen_fd_ >= 0) ::close(listen_fd_);
    listen_fd_ = -1;
    return base::Failure{why};
  }
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { AcceptLoop(); });
  return {};
}

void DownstreamServer::SetStart(Clock::time_point start) {
  start_ns_ = start.time_since_epoch().count();
}

engine::Instant DownstreamServer::Now() const {
  const int64_t ns = Clock::now().time_since_epoch().count() - start_ns_.load();
  return engine::Instant::Zero() + engine::Duration::Micros(std::max<int64_t>(0, ns / 1000));
}

void DownstreamServer::Reap(bool all) {
  for (auto it = connections_.begin(); it != connections_.end();) {
    if (all || (*it)->done) {
      (*it)->thread.join();
      it = connections_.erase(it);
    } else {
      ++it;
    }
  }
}

void DownstreamServer::AcceptLoop() {
  while (!stop_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    Reap(false);
    if (connections_.size() >= static_cast<size_t>(connections_max_)) {
      ++refused_;
      ::close(fd);
      continue;
    }
    ++accepted_;
    auto c = std::make_unique<Connection>();
    c->fd = fd;
    Connection* raw = c.get();
    c->thread = std::thread([this, raw] { Serve(raw); });
    connections_.push_back(std::move(c));
  }
}

void DownstreamServer::Serve(Connection* c) {
  std::string buffer;
  char chunk[2048];
  bool open = true;
  while (open && !stop_) {
    const size_t end = buffer.find("\r\n\r\n");
    if (end == std::string::npos) {
      if (buffer.size() > kRequestBytesMax) {
        ++bad_;
        SendAll(c->fd, Response(400, "", true));
        break;
      }
      pollfd p{c->fd, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      const ssize_t n = ::recv(c->fd, chunk, sizeof chunk, 0);
      if (n <= 0) break;  // closed by the client (or an error): nothing to answer
      buffer.append(chunk, static_cast<size_t>(n));
      continue;
    }
    if (end > kRequestBytesMax) {
      ++bad_;
      SendAll(c->fd, Response(400, "", true));
      break;
    }
    open = Answer(c->fd, buffer.substr(0, end));
    buffer.erase(0, end + 4);
  }
  ::close(c->fd);
  c->done = true;
}

bool DownstreamServer::Answer(int fd, const std::string& head) {
  const std::optional<Request> r = ParseHead(head);
  if (!r) {
    ++bad_;
    SendAll(fd, Response(400, "", true));
    return false;
  }
  DownstreamAnswer answer;
  {
    std::lock_guard<std::mutex> lock(api_mu_);
    answer = api_.Decide(Now(), CallKey(r->id, r->attempt, r->call));
  }
  const auto until = Clock::now() + std::chrono::microseconds(answer.call_us);
  while (!stop_ && Clock::now() < until) {
    std::this_thread::sleep_for(
        std::min<Clock::duration>(until - Clock::now(), std::chrono::milliseconds(50)));
  }
  ++(answer.status == 200 ? ok_ : answer.status == 429 ? limited_ : unavailable_);
  return SendAll(fd, Response(answer.status, answer.retry_after, r->close)) && !r->close;
}

void DownstreamServer::Stop() {
  stop_ = true;
  if (acceptor_.joinable()) acceptor_.join();
  Reap(true);
  if (listen_fd_ >= 0) ::close(listen_fd_);
  listen_fd_ = -1;
}

DownstreamServerCounts DownstreamServer::counts() const {
  DownstreamServerCounts c;
  c.ok_200 = ok_;
  c.rate_limited_429 = limited_;
  c.unavailable_503 = unavailable_;
  c.bad_400 = bad_;
  c.connections = accepted_;
  c.connections_refused = refused_;
  return c;
}

}  // namespace drainsim::live
