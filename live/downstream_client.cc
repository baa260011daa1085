#include "live/downstream_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include "live/downstream_api.h"
#include "live/stop_signal.h"

namespace drainsim::live {

namespace {

using Clock = std::chrono::steady_clock;

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string Trim(const std::string& text) {
  const size_t from = text.find_first_not_of(" \t");
  if (from == std::string::npos) return "";
  return text.substr(from, text.find_last_not_of(" \t") - from + 1);
}

}  // namespace

base::Status DownstreamClient::Connect() {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port_));
  if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    const std::string why = std::string("downstream connect: ") + std::strerror(errno);
    Close();
    return base::Failure{why};
  }
  const int one = 1;  // one small request per round trip: no Nagle delay
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  ++connects_;
  return {};
}

void DownstreamClient::Close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

HttpAnswer DownstreamClient::Try(const std::string& request, Clock::time_point deadline,
                                 bool* retry) {
  HttpAnswer answer;
  *retry = false;
  if (::send(fd_, request.data(), request.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(request.size())) {
    *retry = true;
    answer.error = std::string("downstream send: ") + std::strerror(errno);
    return answer;
  }
  std::string buffer;
  char chunk[1024];
  size_t end = std::string::npos;
  while ((end = buffer.find("\r\n\r\n")) == std::string::npos) {
    if (StopRequested() || Clock::now() >= deadline || buffer.size() > 8192) {
      answer.error = "downstream: no answer in time";
      return answer;
    }
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) {
      *retry = buffer.empty();  // a kept-alive connection the server had closed
      answer.error = "downstream: connection closed";
      return answer;
    }
    buffer.append(chunk, static_cast<size_t>(n));
  }
  // The server sends Content-Length: 0 and never pipelines: nothing follows the head.
  const std::string head = buffer.substr(0, end);
  if (head.compare(0, 9, "HTTP/1.1 ") != 0 || head.size() < 12) {
    answer.error = "downstream: not an HTTP/1.1 answer";
    return answer;
  }
  answer.status = std::atoi(head.substr(9, 3).c_str());
  bool close = false;
  for (size_t at = head.find("\r\n"); at != std::string::npos;) {
    const size_t next = head.find("\r\n", at + 2);
    const std::string line = head.substr(at + 2, next == std::string::npos ? next : next - at - 2);
    at = next;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string name = Lower(line.substr(0, colon));
    const std::string value = Trim(line.substr(colon + 1));
    if (name == "retry-after") answer.retry_after = value;
    if (name == "connection" && Lower(value) == "close") close = true;
  }
  if (close) Close();
  return answer;
}

HttpAnswer DownstreamClient::Call(const std::string& request, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  HttpAnswer answer;
  for (int round = 0; round < 2; ++round) {
    const bool reused = fd_ >= 0;
    if (!reused) {
      if (base::Status connected = Connect(); !connected) {
        answer.error = connected.error();
        return answer;
      }
    }
    bool retry = false;
    answer = Try(request, deadline, &retry);
    if (answer.status != 0) return answer;
    Close();
    if (!(retry && reused)) return answer;  // only a stale kept-alive connection is retried
  }
  return answer;
}

std::optional<int64_t> RetryAfterWaitUs(const std::string& value, int64_t now_us,
                                        int64_t epoch_utc_s) {
  if (!value.empty() && value.size() <= 12 &&
      std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::stoll(value) * 1'000'000;
  }
  const std::optional<int64_t> date_s = ParseImfFixdate(value);
  if (!date_s) return std::nullopt;
  return std::max<int64_t>(0, (*date_s - epoch_utc_s) * 1'000'000 - now_us);
}

}  // namespace drainsim::live
