// The small scenario most experiment tests run: cheap, and random wherever it can be.
#pragma once

namespace drainsim::testing {

// Ten minutes of Poisson jobs on two workers with 10% transient errors retried with full jitter:
// about 0.02 s per run, random in arrivals, service times, errors and backoffs.
inline const char* kSmallScenario = R"({"format_version": 1, "name": "small", "seed": 5,
  "run": {"until_s": 600},
  "kinds": {"job": {"handler": {"cpu_ms": {"exponential": {"mean": 40}}}}},
  "producers": [{"kind": "job", "poisson": {"rate_per_s": 20}}],
  "workers": {"count": 2},
  "retry": {"backoff": {"kind": "exponential", "base_s": 1, "factor": 2, "cap_s": 30,
                        "jitter": {"kind": "full"}},
            "classes": {"transient": {"action": "retry", "attempts_max": 4}}},
  "faults": [{"type": "errors", "probability": 0.1}],
  "expect": [{"metric": "lost", "equals": 0}, {"metric": "attempts", "max": 14000}]})";

}  // namespace drainsim::testing
