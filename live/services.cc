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

base::Expected<std::unique_ptr<Services>> Services::Start(const ServiceOptions& options) {
  std::unique_ptr<Services> s(new Services());
  // "-": not needed (no database for the scenario; no broker for --db-curve).
  s->amqp_url_ = options.amqp_url == "-" ? "" : options.amqp_url;
  s->postgres_url_ = options.postgres_url == "-" ? "" : options.postgres_url;
  const bool need_rabbit = options.amqp_url.empty();
  const bool need_pg = options.postgres_url.empty();
  if (!need_rabbit && !need_pg) return s;
  base::Expected<ScratchDir> scratch = ScratchDir::Create();
  if (!scratch) return base::Failure{scratch.error()};
  s->scratch_ = std::move(*scratch);
  if (options.keep_data) s->scratch_->Keep();

  const auto start = Clock::now();
  // Launched from this thread, which outlives them (the parent-death signal belongs to the
  // forking thread); RabbitMQ first, since its boot (about 10 s) dominates and PostgreSQL's
  // initdb fits inside it.
  // A failure returns here: the destructor of `s` stops whatever did start.
  if (need_rabbit) {
    base::Expected<std::unique_ptr<PrivateRabbitMq>> rabbit =
        PrivateRabbitMq::Launch(*s->scratch_, options.consumer_timeout_ms);
    if (!rabbit) return base::Failure{"RabbitMQ could not start: " + rabbit.error()};
    s->rabbit_ = std::move(*rabbit);
  }
  if (need_pg) {
    base::Expected<std::unique_ptr<PrivatePostgres>> pg =
        PrivatePostgres::Launch(*s->scratch_, options.max_connections, options.postgres_cpus);
    if (!pg) return base::Failure{"PostgreSQL could not start: " + pg.error()};
    s->pg_ = std::move(*pg);
    if (base::Status ready = s->pg_->WaitReady(options.ready_timeout); !ready) {
      return base::Failure{"PostgreSQL could not start: " + ready.error()};
    }
    s->pg_ready_s_ = SecondsSince(start);
  }
  if (need_rabbit) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        start + options.ready_timeout - Clock::now());
    if (base::Status ready = s->rabbit_->WaitReady(std::max(left, std::chrono::milliseconds(1)));
        !ready) {
      return base::Failure{"RabbitMQ could not start: " + ready.error()};
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
