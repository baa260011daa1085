"""The reference model's parameters, its drainsim scenario and the agreement check.

The model itself is stated in mmc_retries_handwritten.cc and mmc_retries_simpy.py (and in
tools/bench/RESULTS.md). Here: the numbers, and the statistics that decide whether three runs
with independent random numbers did the same work.
"""

import math

MU_PER_S = 10.0  # 100 ms mean service
P_FAIL = 0.1  # each attempt fails with this probability
ATTEMPTS_MAX = 5  # the first attempt included; after the 5th failure: dead letter
BACKOFF_BASE_S = 1.0  # a failed attempt n waits BASE * 2^(n-1) s
RHO = 0.8  # offered load, retries included
TAIL_S = 3600.0  # drainsim's run.until_s = T + TAIL_S; the run ends once nothing can happen
Z_SOJOURN = 5.0  # mean sojourn: tolerance in combined standard errors
ALPHA_COUNTS = 1e-4  # two-sided level of the exact tests on counts
Z_COUNTS = 5.0  # normal-approximation tests on counts (arrivals, attempts)


def attempts_distribution(p=P_FAIL, n=ATTEMPTS_MAX):
    """P(a job makes k attempts), k = 1..n: k - 1 failures, then a success or the n-th failure."""
    return {k: (p ** (k - 1) * (1 - p) if k < n else p ** (n - 1)) for k in range(1, n + 1)}


def expected_attempts():
    """E[attempts] = sum_{k=0}^{n-1} p^k (1.1111 for p = 0.1, n = 5)."""
    return sum(k * q for k, q in attempts_distribution().items())


def parameters(c, jobs, seed):
    """lambda such that rho = lambda * E[attempts] / (c mu); T = jobs / lambda."""
    lam = RHO * c * MU_PER_S / expected_attempts()
    return {"c": c, "jobs": jobs, "seed": seed, "lambda": lam, "until_s": jobs / lam,
            "mu": MU_PER_S, "p_fail": P_FAIL, "attempts_max": ATTEMPTS_MAX,
            "backoff_base_s": BACKOFF_BASE_S}


def reference_args(params):
    """Command-line arguments of the hand-written loop and the SimPy script (same flags)."""
    return ["--lambda", repr(params["lambda"]), "--mu", repr(params["mu"]),
            "--c", str(params["c"]), "--until-s", repr(params["until_s"]),
            "--p-fail", repr(params["p_fail"]), "--attempts-max", str(params["attempts_max"]),
            "--backoff-base-s", repr(params["backoff_base_s"]), "--seed", str(params["seed"])]


def scenario(params):
    """The model as a drainsim scenario (docs/SCENARIO-REFERENCE.md).

    One kind whose whole attempt is validate_ms ~ exponential(1/mu), so validation is the
    service; an errors fault fails each attempt with p_fail right after validation
    (fail_after_ms null), i.e. at the end of the service; republish retries with exponential
    backoff, no jitter, a cap that never binds; one consumer per server (prefetch 1,
    concurrency 1). The visibility timeout and the DLQ retention are long enough never to act.
    """
    return {
        "format_version": 1,
        "name": f"bench-compare-mmc-retries-c{params['c']}",
        "description": "tools/bench/compare's reference model: M/M/c with retries (each attempt "
                       "fails with p_fail; exponential backoff base 1 s, factor 2; dead letter "
                       "after attempts_max). Generated; do not edit.",
        "seed": params["seed"],
        "run": {"until_s": params["until_s"] + TAIL_S, "sample_every_s": 1000,
                "events_max": 1_000_000_000},
        "kinds": {"job": {"handler": {
            "validate_ms": {"exponential": {"mean": 1000.0 / params["mu"]}},
            "cpu_ms": {"constant": 0}}}},
        "producers": [{"kind": "job", "poisson": {
            "rate_per_s": params["lambda"], "from_s": 0, "until_s": params["until_s"]}}],
        "broker": {"visibility_timeout_s": 86400, "dlq_retention_s": None},
        "workers": {"count": params["c"], "prefetch": 1, "concurrency": 1},
        "retry": {
            "delivery": "republish",
            "backoff": {"kind": "exponential", "base_s": params["backoff_base_s"], "factor": 2,
                        "cap_s": 100000, "jitter": {"kind": "none"}},
            "classes": {"transient": {"action": "retry",
                                      "attempts_max": params["attempts_max"]}},
        },
        "faults": [{"type": "errors", "probability": params["p_fail"], "error": "transient"}],
    }


def sojourn_without_waiting_s(params):
    """Mean sojourn if no job ever waited for a server (c large): services plus backoffs."""
    p, n = params["p_fail"], params["attempts_max"]
    mu, base = params["mu"], params["backoff_base_s"]
    total = sum((1 - p) * p ** k * ((k + 1) / mu + base * (2 ** k - 1)) for k in range(n))
    return total / (1 - p ** n)


def poisson_tails(k, m):
    """(P(X <= k), P(X >= k)) for X ~ Poisson(m)."""
    if m <= 0:
        return (1.0, 1.0 if k == 0 else 0.0)
    pmf = [math.exp(-m)]
    for i in range(1, k + 1):
        pmf.append(pmf[-1] * m / i)
    below = min(1.0, sum(pmf))
    return below, min(1.0, 1.0 - below + pmf[k])


def check_agreement(rows, params):
    """Returns (notes, disagreements): one line per figure checked, and the failures.

    Each run draws independent random numbers, so agreement is statistical:
      - every job ends once: completed + dead_lettered == jobs (exact);
      - arrivals: |jobs - E| <= 5 sqrt(E), E = lambda T (Poisson);
      - attempts per job: within 5 standard errors of E[attempts] (exact mean and variance);
      - dead letters: Binomial(jobs, p^n) ~ Poisson; the count must not lie in either tail of
        probability ALPHA/2;
      - mean sojourn, pairwise: |a - b| <= 5 sqrt(2) se, se the standard error of one run's
        mean by batch means (30 batches by arrival time), pooled over the loop and SimPy:
        the same model and size give every implementation the same sampling error, and
        drainsim's report has no spread of its own. Pooling two 29-dof estimates, 5 se is
        beyond the two-sided 1e-4 point of the t distribution: a false alarm is rare, while a
        model error such as a doubled backoff (+0.125 s, about 50%) is caught at 20000 jobs.
    """
    notes, bad = [], []
    expected_jobs = params["lambda"] * params["until_s"]
    dist = attempts_distribution(params["p_fail"], params["attempts_max"])
    e_att = sum(k * q for k, q in dist.items())
    var_att = sum(k * k * q for k, q in dist.items()) - e_att ** 2
    p_dlq = params["p_fail"] ** params["attempts_max"]
    for r in rows:
        name, jobs = r["impl"], r["jobs"]
        if r["completed"] + r["dead_lettered"] != jobs:
            bad.append(f"{name}: completed {r['completed']} + dead-lettered "
                       f"{r['dead_lettered']} != jobs {jobs}")
        if abs(jobs - expected_jobs) > Z_COUNTS * math.sqrt(expected_jobs):
            bad.append(f"{name}: {jobs} arrivals, expected {expected_jobs:.0f} +- "
                       f"{Z_COUNTS:.0f} sqrt")
        per_job = r["attempts"] / jobs
        tol = Z_COUNTS * math.sqrt(var_att / jobs)
        if abs(per_job - e_att) > tol:
            bad.append(f"attempts per job: {name} {per_job:.5f}, expected {e_att:.5f} +- {tol:.5f}")
        m = jobs * p_dlq
        below, above = poisson_tails(r["dead_lettered"], m)
        if min(below, above) < ALPHA_COUNTS / 2:
            bad.append(f"dead-letter count: {name} {r['dead_lettered']}, expected {m:.2f} "
                       f"(P(X <= k) {below:.2g}, P(X >= k) {above:.2g})")
    notes.append(f"attempts per job: expected {e_att:.5f}; "
                 + ", ".join(f"{r['impl']} {r['attempts'] / r['jobs']:.5f}" for r in rows))
    notes.append(f"dead letters: expected jobs x {p_dlq:g} = {expected_jobs * p_dlq:.2f}; "
                 + ", ".join(f"{r['impl']} {r['dead_lettered']}" for r in rows))

    # Same model, same size: the same sampling error for all three; pool the estimates.
    ses = [r["sojourn_se_s"] for r in rows if r["sojourn_se_s"] is not None]
    se_pooled = math.sqrt(sum(x * x for x in ses) / len(ses)) if ses else 0.0
    mean = {r["impl"]: r["mean_sojourn_s"] for r in rows}
    names = [r["impl"] for r in rows]
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    for a, b in pairs:
        diff = mean[a] - mean[b]
        tol = Z_SOJOURN * math.sqrt(2.0) * se_pooled
        verdict = "ok" if abs(diff) <= tol else "DISAGREE"
        notes.append(f"mean sojourn {a} - {b}: {diff:+.6f} s ({100 * diff / mean[b]:+.2f}%), "
                     f"tolerance {tol:.6f} s ({100 * tol / mean[b]:.2f}%): {verdict}")
        if verdict != "ok":
            bad.append(f"mean sojourn disagrees: {a} {mean[a]:.6f} s, {b} {mean[b]:.6f} s, "
                       f"difference {diff:+.6f} s beyond {tol:.6f} s")
    notes.append(f"mean sojourn if nobody waited for a server: "
                 f"{sojourn_without_waiting_s(params):.6f} s (the limit as c grows)")
    return notes, bad
