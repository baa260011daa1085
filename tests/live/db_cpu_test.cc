// --db-work cpu and --db-cpus for drainsim live, without a database (live/db_cpu.h,
// live/db_work_meter.h, tools/drainsim/live_db_work.h): the options refused, the CPUs pinned, the
// calibration's arithmetic, the SQL of the functions, and the meter's cells.
#include "live/db_cpu.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "live/db_work_meter.h"

namespace db_cpu_test {
namespace {

namespace live = drainsim::live;

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("live db work: --db-work parses sleep and cpu only", "[live]") {
  CHECK(live::ParseDbWork("sleep") == live::DbWork::kSleep);
  CHECK(live::ParseDbWork("cpu") == live::DbWork::kCpu);
  CHECK_FALSE(live::ParseDbWork("CPU"));
  CHECK_FALSE(live::ParseDbWork(""));
  CHECK(std::string(live::DbWorkName(live::DbWork::kCpu)) == "cpu");
  CHECK(std::string(live::DbWorkName(live::DbWork::kSleep)) == "sleep");
}

TEST_CASE("live db work: --db-cpus is refused with --postgres and outside the CPUs allowed",
          "[live]") {
  live::DbWorkOptions o;
  o.work = live::DbWork::kCpu;
  CHECK(live::CheckDbWork(o, /*postgres_given=*/true, 2).ok());  // not pinned: fine
  o.cpus = 1;
  CHECK(live::CheckDbWork(o, false, 2).ok());
  const std::string given = live::CheckDbWork(o, true, 2).error();
  CHECK(Has(given, "--postgres"));
  CHECK(Has(given, "--db-cpus"));
  o.cpus = 3;
  CHECK(Has(live::CheckDbWork(o, false, 2).error(), "1..2"));
  o.cpus = -1;
  CHECK(Has(live::CheckDbWork(o, false, 2).error(), "1..2"));
  o.cpus = 2;
  CHECK(live::CheckDbWork(o, false, 2).ok());
}

TEST_CASE("live db work: cpu work or pinning without a database in the scenario is refused",
          "[live]") {
  live::DbWorkOptions o;
  CHECK(live::CheckDbWorkForScenario(o, false).ok());  // the default: nothing to refuse
  CHECK(live::CheckDbWorkForScenario(o, true).ok());
  o.work = live::DbWork::kCpu;
  CHECK(Has(live::CheckDbWorkForScenario(o, false).error(), "no database"));
  CHECK(live::CheckDbWorkForScenario(o, true).ok());
  o.work = live::DbWork::kSleep;
  o.cpus = 1;
  CHECK(Has(live::CheckDbWorkForScenario(o, false).error(), "--db-cpus"));
  CHECK(live::CheckDbWorkForScenario(o, true).ok());
}

TEST_CASE("live db work: a scenario's database cores make the work CPU on that many CPUs",
          "[live]") {
  const live::DbWorkOptions plain;  // as parsed with neither flag given
  std::string note;
  live::DbWorkOptions o = live::WithScenarioCores(plain, false, false, 1, false, 2, &note);
  CHECK(o.work == live::DbWork::kCpu);
  CHECK(o.cpus == 1);
  CHECK(note == "database: the scenario's cores 1: --db-work cpu --db-cpus 1");
  // What the command line says wins.
  live::DbWorkOptions given;
  given.work = live::DbWork::kSleep;
  given.cpus = 2;
  o = live::WithScenarioCores(given, true, true, 1, false, 2, &note);
  CHECK(o.work == live::DbWork::kSleep);
  CHECK(o.cpus == 2);
  CHECK(note.empty());
  // Not pinned: a fraction, more CPUs than allowed, a server given by --postgres.
  o = live::WithScenarioCores(plain, false, false, 1.5, false, 2, &note);
  CHECK((o.work == live::DbWork::kCpu && o.cpus == 0));
  CHECK(Has(note, "fraction"));
  o = live::WithScenarioCores(plain, false, false, 4, false, 2, &note);
  CHECK(o.cpus == 0);
  CHECK(Has(note, "the 2 CPUs"));
  o = live::WithScenarioCores(plain, false, false, 1, true, 2, &note);
  CHECK(o.cpus == 0);
  CHECK(Has(note, "--postgres"));
}

TEST_CASE("live db work: the server is pinned to the last K CPUs allowed", "[live]") {
  CHECK(live::PinnedCpus({0, 1}, 1) == std::vector<int>{1});
  CHECK(live::PinnedCpus({0, 1}, 2) == std::vector<int>{0, 1});
  CHECK(live::PinnedCpus({2, 5, 7}, 2) == std::vector<int>{5, 7});
  CHECK(live::CpuList({5, 7}) == "5,7");
  CHECK(live::CpuList({}).empty());
  CHECK_FALSE(live::AllowedCpus().empty());  // this process runs somewhere
}

TEST_CASE("live db work: the calibration is the median rate, per CPU ms when measured", "[live]") {
  // Wall clock only: rates 100, 50, 200 iterations/ms -> 100.
  CHECK(live::MedianIterationsPerMs({{1000, 10, 0}, {1000, 20, 0}, {1000, 5, 0}}) == Approx(100));
  // An even count: the mean of the middle two (50 and 100; 200 and 25 outside).
  CHECK(live::MedianIterationsPerMs({{1000, 10, 0}, {1000, 20, 0}, {1000, 5, 0}, {1000, 40, 0}}) ==
        Approx(75));
  // The backend's CPU time, when measured, rather than the wall clock of a busy machine: 40 ms
  // of wall for 10 ms of CPU is a rate of 100, not 25.
  CHECK(live::RunMs({1000, 40, 10}) == 10);
  CHECK(live::RunMs({1000, 40, 0}) == 40);
  CHECK(live::MedianIterationsPerMs({{1000, 40, 10}, {1000, 35, 10}, {1000, 80, 12.5}}) ==
        Approx(100));
  // Runs without iterations or time are ignored, not divided by.
  CHECK(live::MedianIterationsPerMs({{0, 10, 0}, {1000, 0, 0}, {3000, 10, 0}}) == Approx(300));
}

TEST_CASE("live db work: the backends' CPU is summed, and compared only for the same backends",
          "[live]") {
  // This process's own schedstat: readable, and it grows while it spins.
  const int self = static_cast<int>(getpid());
  // One read first: the CPU clock only grows, so each of the two reads that follow is at least
  // this one, and their sum at least twice it, with no margin. (Read after them, with a 0.1%
  // margin, it failed under the sanitizers: 198.9 < 2 x 103.3 ms, the process busy between.)
  const std::optional<double> one = live::ProcessCpuMs(self);
  REQUIRE(one.has_value());
  const std::optional<live::BackendsCpu> before = live::ReadBackendsCpu({self, self});
  REQUIRE(before.has_value());
  CHECK(before->pids == std::vector<int>{self, self});
  CHECK(before->cpu_ms >= 2 * *one);  // summed over the list
  volatile uint64_t x = 0;
  for (uint64_t i = 0; i < 20'000'000; ++i) x = x + i;
  const std::optional<live::BackendsCpu> after = live::ReadBackendsCpu({self, self});
  REQUIRE(after.has_value());
  const std::optional<double> spent = live::BackendsCpuBetween(before, after);
  REQUIRE(spent.has_value());
  CHECK(*spent > 0);
  // A connection down (pid 0) or a process gone: no figure rather than a partial one.
  CHECK_FALSE(live::ReadBackendsCpu({self, 0}).has_value());
  CHECK_FALSE(live::ReadBackendsCpu({self, -1}).has_value());
  // A backend replaced between the two readings (a reset connection): no figure.
  const live::BackendsCpu start{{10, 11}, 100}, same{{10, 11}, 250}, reset{{10, 12}, 260};
  CHECK(live::BackendsCpuBetween(start, same) == Approx(150));
  CHECK_FALSE(live::BackendsCpuBetween(start, reset).has_value());
  CHECK_FALSE(live::BackendsCpuBetween(std::nullopt, same).has_value());
  CHECK_FALSE(live::BackendsCpuBetween(start, std::nullopt).has_value());
}

TEST_CASE("live db work: the functions' SQL carries the run id, the rate and the slowdown",
          "[live]") {
  const std::string spin = live::SpinFunctionSql("run7");
  CHECK(Has(spin, "CREATE FUNCTION run7_spin(n bigint)"));
  CHECK(Has(spin, "LANGUAGE plpgsql"));
  CHECK(Has(spin, "clock_timestamp()"));
  CHECK(Has(spin, std::to_string(live::kSpinIterationsMax)));
  const std::string cpu = live::CpuFunctionSql("run7", 12345.5, "");
  CHECK(Has(cpu, "CREATE FUNCTION run7_cpu(s double precision)"));
  CHECK(Has(cpu, "run7_spin(round(s * 1000 * 12345.500000)::bigint)"));
  CHECK_FALSE(Has(cpu, "factor"));
  const std::string slowed = live::CpuFunctionSql("run7", 100, "run7_slowdown");
  CHECK(Has(slowed, "* (SELECT factor FROM run7_slowdown)"));
  const std::string drop = live::DropCpuFunctionsSql("run7");
  CHECK(Has(drop, "DROP FUNCTION IF EXISTS run7_cpu(double precision)"));
  CHECK(Has(drop, "DROP FUNCTION IF EXISTS run7_spin(bigint)"));
}

TEST_CASE("live db work: the meter groups statements by the number running at their start",
          "[live]") {
  live::DbWorkMeter meter;
  const auto a = meter.Start(/*waiting=*/3);
  const auto b = meter.Start(1);
  CHECK(a.running == 1);
  CHECK(b.running == 2);
  meter.Finish(b, 20'000, 40'000, true);
  meter.Finish(a, 20'000, 30'000, true);
  const auto c = meter.Start(0);
  CHECK(c.running == 1);                          // both finished: this one alone
  meter.Finish(c, 10'000, 99'000, /*ok=*/false);  // a cancelled statement: not in the times
  const live::DbWorkTotals t = meter.Figures();
  REQUIRE(t.by_running.size() == 2);
  CHECK(t.by_running[0].running == 1);
  CHECK(t.by_running[0].statements == 1);
  CHECK(t.by_running[0].ratio() == Approx(1.5));
  CHECK(t.by_running[0].waiting_mean() == Approx(3));
  CHECK(t.by_running[1].ratio() == Approx(2.0));
  CHECK(t.all.statements == 2);
  CHECK(t.all.ratio() == Approx(70.0 / 40.0));
  CHECK(t.running_mean == Approx(1.5));
  meter.Reset();
  CHECK(meter.Figures().all.statements == 0);
  CHECK(meter.Start(0).running == 1);  // Reset forgets the cells, not who is running
}

TEST_CASE("live db work: the meter counts concurrent statements exactly", "[live]") {
  live::DbWorkMeter meter;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&meter] {
      for (int i = 0; i < 250; ++i) meter.Finish(meter.Start(0), 1000, 1000, true);
    });
  }
  for (std::thread& t : threads) t.join();
  const live::DbWorkTotals totals = meter.Figures();
  CHECK(totals.all.statements == 1000);
  CHECK(totals.all.ratio() == Approx(1.0));
  for (const live::DbWorkCell& cell : totals.by_running) {
    CHECK(cell.running >= 1);
    CHECK(cell.running <= 4);
  }
}

}  // namespace db_cpu_test
