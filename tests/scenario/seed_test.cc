// Seeds above 2^53 survive every JSON reader: the dump writes them as strings of decimal digits,
// and the loader reads both forms (sim/base/json_integers.h). Regression: report.json wrote
// 10903086657810375724 as a bare number, which jq and JavaScript read as 10903086657810377000.
#include <catch2/catch.hpp>

#include "sim/base/json_integers.h"
#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace seed_test {
namespace {

using base::kJsonExactIntegerMax;
using base::Uint64Json;
using testing::BaseScenario;
using testing::HasProblem;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;

constexpr uint64_t kBigSeed = 10903086657810375724ULL;

TEST_CASE("Uint64Json: a number up to 2^53, a string above", "[scenario][seed]") {
  CHECK(Uint64Json(42) == Json(42));
  CHECK(Uint64Json(kJsonExactIntegerMax) == Json(uint64_t{9007199254740992}));
  CHECK(Uint64Json(kJsonExactIntegerMax + 1) == Json("9007199254740993"));
  CHECK(Uint64Json(kBigSeed) == Json("10903086657810375724"));
  CHECK(Uint64Json(UINT64_MAX) == Json("18446744073709551615"));
}

TEST_CASE("a seed is read as a number or as a string of digits", "[scenario][seed]") {
  CHECK(MustLoad(With(BaseScenario(), "/seed", kBigSeed)).seed == kBigSeed);
  CHECK(MustLoad(With(BaseScenario(), "/seed", "10903086657810375724")).seed == kBigSeed);
  CHECK(MustLoad(With(BaseScenario(), "/seed", "0")).seed == 0);
  CHECK(MustLoad(With(BaseScenario(), "/seed", "18446744073709551615")).seed == UINT64_MAX);
  for (const char* bad :
       {"", "-1", "+1", "01", "1e3", " 1", "abc", "18446744073709551616", "99999999999999999999"}) {
    INFO("seed \"" << bad << "\"");
    CHECK(
        HasProblem(Load(With(BaseScenario(), "/seed", bad)), "/seed", "string of decimal digits"));
  }
}

TEST_CASE("the dump writes a big seed as a string, and reads it back", "[scenario][seed]") {
  const config::Scenario big = MustLoad(With(BaseScenario(), "/seed", kBigSeed));
  const Json dumped = Json::parse(DumpCanonical(big));
  CHECK(dumped.at("seed") == Json("10903086657810375724"));
  testing::CheckRoundTrip(big);
  const config::Scenario small = MustLoad(With(BaseScenario(), "/seed", 7));
  CHECK(Json::parse(DumpCanonical(small)).at("seed") == Json(7));
}

}  // namespace
}  // namespace seed_test
}  // namespace drainsim::scenario
