// The series' ack_pending column (docs/METRICS.md) is written only for a run whose scenario sets
// broker.ack_pending_max: every other report keeps the columns it had before the field existed.
// Likewise the workers column, only for a run whose scenario sets workers.autoscale, and the
// partition lag columns, only for a run with broker.partitions (one per partition, at most
// kPartitionLagColumns, and the largest lag).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reports/csv_report.h"
#include "reports/json_report.h"
#include "reports/metrics.h"
#include "tests/reports/report_fixture.h"

namespace drainsim {
namespace ack_pending_column_test {
namespace {

reports::ReportInput InputOf(const model::Results& results) {
  static const reports::ReportContext kContext{"scenarios/fixture.json", "00000000deadbeef",
                                               "0.1.0 (commit test)"};
  // A named empty list: ReportInput holds the verdicts by reference, and a `{}` here would be a
  // temporary gone before the caller reads it.
  static const std::vector<reports::Verdict> kNoVerdicts;
  return {results, kContext, kNoVerdicts, reports::ReproduceCommand(kContext.scenario_path, 42)};
}

std::string HeaderOf(const std::string& csv) { return csv.substr(0, csv.find("\r\n")); }

// partition_lag_max and partition_lag_0 .. partition_lag_31.
constexpr size_t kPartitionColumns = 1 + model::kPartitionLagColumns;

TEST_CASE("series: ack_pending only for a run with ack_pending_max", "[reports][csv][json]") {
  model::Results plain = testing::FixtureResults();
  REQUIRE_FALSE(plain.ack_pending_limited);
  // Left out: ack_pending, workers (autoscale only) and the partitions' columns.
  CHECK(reports::SeriesColumnsOf(plain).size() + 2 + kPartitionColumns ==
        reports::SeriesColumns().size());
  CHECK(HeaderOf(reports::CsvSeries(InputOf(plain))).find("ack_pending") == std::string::npos);
  CHECK_FALSE(
      nlohmann::json::parse(reports::JsonReport(InputOf(plain)))["series"].contains("ack_pending"));

  model::Results limited = testing::FixtureResults();
  limited.ack_pending_limited = true;
  for (size_t i = 0; i < limited.series.size(); ++i) {
    limited.series[i].ack_pending = static_cast<int64_t>(i);
  }
  CHECK(reports::SeriesColumnsOf(limited).size() + 1 + kPartitionColumns ==
        reports::SeriesColumns().size());
  const std::string header = HeaderOf(reports::CsvSeries(InputOf(limited)));
  CHECK(header.rfind("t_s,depth,delayed_depth,dlq_depth,parked,in_flight,ack_pending,", 0) == 0);
  const nlohmann::json series =
      nlohmann::json::parse(reports::JsonReport(InputOf(limited)))["series"];
  REQUIRE(series.contains("ack_pending"));
  REQUIRE(series["ack_pending"].size() == limited.series.size());
  CHECK(series["ack_pending"][3] == 3);
  CHECK(series["ack_pending"][3].is_number_integer());
}

TEST_CASE("series: workers only for a run with workers.autoscale", "[reports][csv][json]") {
  model::Results plain = testing::FixtureResults();
  REQUIRE_FALSE(plain.autoscale);
  CHECK(HeaderOf(reports::CsvSeries(InputOf(plain))).find(",workers,") == std::string::npos);
  CHECK_FALSE(
      nlohmann::json::parse(reports::JsonReport(InputOf(plain)))["series"].contains("workers"));

  model::Results scaled = testing::FixtureResults();
  scaled.autoscale = true;
  for (size_t i = 0; i < scaled.series.size(); ++i) {
    scaled.series[i].workers = static_cast<int64_t>(i + 1);
  }
  CHECK(reports::SeriesColumnsOf(scaled).size() + 1 + kPartitionColumns ==
        reports::SeriesColumns().size());
  // Right after workers_busy.
  CHECK(HeaderOf(reports::CsvSeries(InputOf(scaled))).find(",workers_busy,workers,") !=
        std::string::npos);
  const nlohmann::json report = nlohmann::json::parse(reports::JsonReport(InputOf(scaled)));
  REQUIRE(report["series"].contains("workers"));
  CHECK(report["series"]["workers"][3] == 4);
  CHECK(report["series"]["workers"][3].is_number_integer());
  CHECK(report["autoscale"].contains("worker_s"));
  CHECK_FALSE(nlohmann::json::parse(reports::JsonReport(InputOf(plain))).contains("autoscale"));
}

TEST_CASE("series: partition lag only for a run with partitions", "[reports][csv][json]") {
  model::Results plain = testing::FixtureResults();
  REQUIRE(plain.partitions == 0);
  CHECK(HeaderOf(reports::CsvSeries(InputOf(plain))).find("partition_lag") == std::string::npos);

  model::Results kafka = testing::FixtureResults();
  kafka.partitions = 3;
  for (size_t i = 0; i < kafka.series.size(); ++i) {
    const auto n = static_cast<int64_t>(i);
    kafka.series[i].partition_lag = {n, 2 * n, 0};
    kafka.series[i].partition_lag_max = 2 * n;
  }
  // Three partitions: their three columns and the largest lag; the other 29 stay out.
  CHECK(reports::SeriesColumnsOf(kafka).size() + 2 + model::kPartitionLagColumns - 3 ==
        reports::SeriesColumns().size());
  const std::string header = HeaderOf(reports::CsvSeries(InputOf(kafka)));
  CHECK(header.find(",partition_lag_max,partition_lag_0,partition_lag_1,partition_lag_2,") !=
        std::string::npos);
  CHECK(header.find("partition_lag_3") == std::string::npos);
  const nlohmann::json series =
      nlohmann::json::parse(reports::JsonReport(InputOf(kafka)))["series"];
  CHECK(series["partition_lag_1"][3] == 6);
  CHECK(series["partition_lag_max"][3] == 6);
  CHECK(series["partition_lag_2"][3] == 0);
  CHECK(series["partition_lag_1"][3].is_number_integer());

  // 40 partitions: the first 32 one by one, the largest of all 40 in partition_lag_max.
  kafka.partitions = 40;
  CHECK(reports::SeriesColumnsOf(kafka).size() + 2 == reports::SeriesColumns().size());
}

}  // namespace
}  // namespace ack_pending_column_test
}  // namespace drainsim
