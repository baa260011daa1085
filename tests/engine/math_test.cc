#include "sim/engine/math.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "tests/engine/death.h"

namespace drainsim::engine {
namespace math_test {
namespace {

using testing::DiesOfFailedCheck;

TEST_CASE("InverseNormalCdf matches high-precision reference values", "[math]") {
  // References computed with mpmath at 50 digits (solving ln Phi(x) = ln p), rounded to 20.
  struct Case {
    double p;
    double z;
  };
  const Case cases[] = {
      {0.5, 0.0},
      {0.975, 1.9599639845400542355},
      {0.99, 2.3263478740408411009},
      {0.999, 3.0902323061678135415},
      {0.9, 1.281551565544600467},
      {0.3, -0.52440051270804078404},
      {0.01, -2.3263478740408411009},
      {0.075, -1.4395314709384559153},  // just outside the central region (split at 0.425)
      {0.925, 1.4395314709384559153},
      {1e-5, -4.2648907939228246285},
      {1e-10, -6.3613409024040562047},
      {1e-20, -9.2623400897984075737},  // far-tail region (r > 5)
      {1e-100, -21.273453560965324295},
      {1e-300, -37.047096299361199237},
  };
  for (const Case& c : cases) {
    CAPTURE(c.p);
    // AS 241 claims about 1e-16 relative; allow a few ulps of evaluation error.
    CHECK(std::fabs(InverseNormalCdf(c.p) - c.z) <= 4e-16 * std::max(1.0, std::fabs(c.z)));
  }
  CHECK(std::fabs(kNormalQuantile99 - InverseNormalCdf(0.99)) <= 4e-16 * kNormalQuantile99);
}

TEST_CASE("InverseNormalCdf inverts NormalCdf across all three regions", "[math]") {
  // p from 1e-300 up to 0.5 on a log grid, and their mirror images near 1 via the upper tail.
  for (double log10_p = -300; log10_p <= std::log10(0.5); log10_p += 0.01) {
    const double p = std::pow(10.0, log10_p);
    CAPTURE(p);
    const double z = InverseNormalCdf(p);
    // Relative error of p through the round trip: d(Phi)/Phi = (phi/Phi) dz, and phi/Phi ~ |z|
    // in the tail, so a z accurate to 1e-16 relative moves p by about z^2 1e-16.
    const double tolerance = 1e-14 * std::max(1.0, z * z);
    REQUIRE(std::fabs(NormalCdf(z) - p) <= tolerance * p);
    REQUIRE(std::fabs(NormalUpperTail(-z) - p) <= tolerance * p);
  }
}

TEST_CASE("InverseNormalCdf is odd, monotone, and infinite at the ends", "[math]") {
  CHECK(InverseNormalCdf(0.0) == -std::numeric_limits<double>::infinity());
  CHECK(InverseNormalCdf(1.0) == std::numeric_limits<double>::infinity());
  CHECK(InverseNormalCdf(0.5) == 0.0);
  // Symmetry where 1 - p is exact (every multiple of 2^-20).
  for (int k = 1; k < (1 << 20); k += 97) {
    const double p = k * 0x1.0p-20;
    REQUIRE(InverseNormalCdf(1.0 - p) == -InverseNormalCdf(p));
  }
  // Monotone on a fine grid, through both region boundaries (|p - 0.5| = 0.425, and
  // r = 5 at p = e^-25 ~ 1.4e-11).
  double previous = -std::numeric_limits<double>::infinity();
  for (int k = 1; k < 200'000; ++k) {
    const double p = k / 200'000.0;
    const double z = InverseNormalCdf(p);
    REQUIRE(z > previous);
    previous = z;
  }
  const double boundary = std::exp(-25.0);
  CHECK(InverseNormalCdf(boundary * (1 - 1e-12)) < InverseNormalCdf(boundary));
  CHECK(InverseNormalCdf(boundary) < InverseNormalCdf(boundary * (1 + 1e-12)));
  CHECK(InverseNormalCdf(0.075 - 1e-15) < InverseNormalCdf(0.075 + 1e-15));
}

TEST_CASE("NormalCdf, NormalUpperTail and NormalPdf closed forms", "[math]") {
  CHECK(NormalCdf(0.0) == 0.5);
  CHECK(NormalUpperTail(0.0) == 0.5);
  CHECK(std::fabs(NormalPdf(0.0) - 0.3989422804014327) < 1e-16);
  CHECK(std::fabs(NormalCdf(1.959963984540054) - 0.975) < 1e-15);
  // The upper tail stays accurate where 1 - Phi(x) would round to zero.
  CHECK(NormalUpperTail(10.0) > 0.0);
  CHECK(std::fabs(NormalUpperTail(10.0) / 7.619853024160526066e-24 - 1) < 1e-13);
}

TEST_CASE("InverseNormalCdf refuses probabilities outside the unit interval", "[math][death]") {
  CHECK(DiesOfFailedCheck([] { (void)InverseNormalCdf(-1e-300); }));
  CHECK(DiesOfFailedCheck([] { (void)InverseNormalCdf(1.0000000000000002); }));
  CHECK(
      DiesOfFailedCheck([] { (void)InverseNormalCdf(std::numeric_limits<double>::quiet_NaN()); }));
}

}  // namespace
}  // namespace math_test
}  // namespace drainsim::engine
