// live-events.jsonl stays JSON whatever a detail holds (live/event_log.h): a database error's
// text carries quotes and, through a SQL function, a second line (CONTEXT: ...).
#include "live/event_log.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

TEST_CASE("live event log: a detail with quotes, backslashes and newlines is escaped", "[live]") {
  const std::string path = std::string(DRAINSIM_BINARY_DIR) + "/event_log_test.jsonl";
  const std::string detail =
      "failed:transient (database timeout: 57014 ERROR:  canceling statement due to statement "
      "timeout\nCONTEXT:  SQL function \"drainsim_live_1_work\" statement 1\t\\ \x01)";
  {
    drainsim::live::EventLog log(path);
    REQUIRE(log.ok());
    log.Write("reject_requeue", 7, 0, 1, detail);
    log.Write("db_slowdown", drainsim::live::EventLog::kNoMessage, -1, -1, "factor=5");
  }
  std::ifstream in(path);
  std::string line;
  REQUIRE(std::getline(in, line));
  const nlohmann::json first = nlohmann::json::parse(line);  // throws if the line is not JSON
  CHECK(first.at("detail") == detail);
  CHECK(first.at("id") == 7);
  REQUIRE(std::getline(in, line));
  CHECK(nlohmann::json::parse(line).at("detail") == "factor=5");
  CHECK_FALSE(std::getline(in, line));  // one line per write, nothing more
}
