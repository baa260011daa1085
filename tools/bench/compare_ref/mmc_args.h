// mmc_args.h: the command line of tools/bench/compare's hand-written loop. Every model
// parameter is required (compare passes them all); only the batch count has a default.
// `--check-sampler N` alone (with --seed) runs the exponential sampler's self-check instead.
//
// Invariants of a returned Params: (1) in a model run, every rate, time and probability is in
// range and the integers are whole; (2) with check_sampler_draws > 0, only the seed is used.
// A bad command line prints the usage and exits 2.
#ifndef DRAINSIM_TOOLS_BENCH_COMPARE_REF_MMC_ARGS_H_
#define DRAINSIM_TOOLS_BENCH_COMPARE_REF_MMC_ARGS_H_

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace mmc {

struct Params {
  double lambda = -1, mu = -1, until_s = -1, p_fail = -1, backoff_base_s = -1;
  int64_t c = -1, attempts_max = -1, batches = 30, check_sampler_draws = 0;
  uint64_t seed = 0;
};

[[noreturn]] inline void Usage(const char* why) {
  std::fprintf(stderr,
               "mmc_retries_handwritten: %s\nusage: mmc_retries_handwritten --lambda L --mu M "
               "--c C --until-s T --p-fail P --attempts-max N --backoff-base-s B --seed S "
               "[--batches K]\n       mmc_retries_handwritten --check-sampler DRAWS --seed S\n",
               why);
  std::exit(2);
}

inline Params Parse(int argc, char** argv) {
  Params p;
  double c = -1, attempts_max = -1, batches = 30, seed = -1, check_draws = 0;
  const struct {
    const char* flag;
    double* value;
  } kFlags[] = {{"--lambda", &p.lambda},
                {"--mu", &p.mu},
                {"--until-s", &p.until_s},
                {"--p-fail", &p.p_fail},
                {"--backoff-base-s", &p.backoff_base_s},
                {"--c", &c},
                {"--attempts-max", &attempts_max},
                {"--batches", &batches},
                {"--seed", &seed},
                {"--check-sampler", &check_draws}};
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 >= argc) Usage("every flag takes a value");
    char* end = nullptr;
    const double value = std::strtod(argv[i + 1], &end);
    if (end == argv[i + 1] || *end != '\0' || !std::isfinite(value)) Usage("bad number");
    bool known = false;
    for (const auto& f : kFlags) {
      if (std::strcmp(argv[i], f.flag) == 0) {
        *f.value = value;
        known = true;
      }
    }
    if (!known) Usage("unknown flag");
  }
  // Integers must be whole and in range; the seed too (up to 2^53, plenty for a benchmark).
  auto whole = [](double v, double low, double high) {
    return v >= low && v <= high && v == std::floor(v);
  };
  if (!whole(seed, 0, 0x1.0p53)) Usage("missing or out-of-range --seed");
  p.seed = static_cast<uint64_t>(seed);
  if (check_draws != 0) {
    if (!whole(check_draws, 1e5, 1e11)) Usage("--check-sampler takes 1e5 to 1e11 draws");
    p.check_sampler_draws = static_cast<int64_t>(check_draws);
    return p;
  }
  if (!(p.lambda > 0 && p.mu > 0 && p.until_s > 0 && p.p_fail >= 0 && p.p_fail <= 1 &&
        p.backoff_base_s > 0 && whole(c, 1, 1e7) && whole(attempts_max, 1, 60) &&
        whole(batches, 2, 1e4))) {
    Usage("missing or out-of-range parameter");
  }
  p.c = static_cast<int64_t>(c);
  p.attempts_max = static_cast<int64_t>(attempts_max);
  p.batches = static_cast<int64_t>(batches);
  return p;
}

}  // namespace mmc

#endif  // DRAINSIM_TOOLS_BENCH_COMPARE_REF_MMC_ARGS_H_
