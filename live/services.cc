#include "live/services.h"

#include <algorithm>
#include <thread>

namespace drainsim::live {

namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

std::unique_ptr<Services> Services::Start(const ServiceOptions& options, std::string* error) {
  std::unique_ptr<Services> s(new Services());
  // "-": not needed (no database for the scenario; no broker for --db-curve).
  s->amqp_url_ = options.amqp_url == "-" ? "" : options.amqp_url;
  s->postgres_url_ = options.postgres_url == "-" ? "" : options.postgres_url;
  const bool need_rabbit = options.amqp_url.empty();
  const bool need_pg = options.postgres_url.empty();
  if (!need_rabbit && !need_pg) return s;
  s->scratch_ = std::make_unique<ScratchDir>(error);
  if (s->scratch_->path().empty()) return nullptr;
  if (options.keep_data) s->scratch_->Keep();

  const auto start = Clock::now();
  // Launched from this thread, which outlives them (the parent-death signal belongs to the
  // forking thread); RabbitMQ first, since its boot (about 10 s) dominates and PostgreSQL's
  // initdb fits inside it.
  std::string why;
  if (need_rabbit) {
    s->rabbit_ = PrivateRabbitMq::Launch(*s->scratch_, &why, options.consumer_timeout_ms);
    if (!s->rabbit_) {
      *error = "RabbitMQ could not start: " + why;
      return nullptr;
    }
  }
  if (need_pg) {
    s->pg_ =
        PrivatePostgres::Launch(*s->scratch_, options.max_connections, &why, options.postgres_cpus);
    if (!s->pg_ || !s->pg_->WaitReady(options.ready_timeout, &why)) {
      *error = "PostgreSQL could not start: " + why;
      return nullptr;  // the destructor stops whatever did start
    }
    s->pg_ready_s_ = SecondsSince(start);
  }
  if (need_rabbit) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        start + options.ready_timeout - Clock::now());
    if (!s->rabbit_->WaitReady(std::max(left, std::chrono::milliseconds(1)), &why)) {
      *error = "RabbitMQ could not start: " + why;
      return nullptr;
    }
    s->rabbit_ready_s_ = SecondsSince(start);
  }
  s->start_s_ = SecondsSince(start);
  if (need_rabbit) s->amqp_url_ = s->rabbit_->url();
  if (need_pg) s->postgres_url_ = s->pg_->conninfo();
  return s;
}

double Services::Stop() {
  const auto start = Clock::now();
  // Independent: stop both at once, so the teardown costs the slower of the two.
  std::thread pg_stop([this] {
    if (pg_) pg_->Stop();
  });
  if (rabbit_) rabbit_->Stop();
  pg_stop.join();
  pg_.reset();
  rabbit_.reset();
  return SecondsSince(start);
}

Services::~Services() {
  Stop();
  scratch_.reset();  // after the services: their files go last
}

}  // namespace drainsim::live
