"""The reference model of tools/bench/compare in SimPy's Store idiom: c long-lived servers.

The model is stated at the top of mmc_retries_simpy.py (and of mmc_retries_handwritten.cc and
tools/bench/RESULTS.md); this file writes the same model the other way SimPy users write a
queue, which is the faster one (issue 16: the comparison is against SimPy's fastest idiom):

  - one simpy.Store holds the waiting jobs; its items are FIFO, so a retry put back after its
    backoff joins the tail, and its waiting getters are FIFO too (which idle server takes a
    job does not matter: the servers are identical);
  - c server processes live for the whole run: get a job, hold it for an exponential service
    time, then record the success, dead-letter it, or start a small backoff process that
    waits base * 2^(n-1) s and puts the job back;
  - the source process puts each arrival into the store (an unbounded store accepts a put at
    once, so nobody yields on it);
  - a job is a two-item list [arrival_s, attempts] and nothing else is kept per job.
When the last job has ended, only the servers' pending gets remain, which are not scheduled
events: the run loop (shared with mmc_retries_simpy.py) ends on EmptySchedule.

Run with Debian's /usr/bin/python3 and python3-simpy3 (SimPy 3.0.x). Same flags and the same
JSON line as mmc_retries_simpy.py; "events" counts SimPy's events (gets, puts, timeouts,
process starts and ends), so it is not comparable with the other implementations'.
"""

import os
import random
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import simpy  # noqa: E402
from mmc_retries_simpy import Stats, parse, run_and_report  # noqa: E402


def server(env, store, rng, p, stats):
    while True:
        job = yield store.get()
        job[1] += 1
        stats.attempts += 1
        yield env.timeout(rng.expovariate(p.mu))
        if rng.random() >= p.p_fail:
            stats.record_sojourn(job[0], env.now - job[0])
        elif job[1] < p.attempts_max:
            env.process(backoff(env, store, job, p.backoff_base_s * 2 ** (job[1] - 1)))
        else:
            stats.dead_lettered += 1


def backoff(env, store, job, wait_s):
    yield env.timeout(wait_s)
    store.put(job)


def source(env, store, rng, p, stats):
    while True:
        gap_s = rng.expovariate(p.lambda_)
        if env.now + gap_s >= p.until_s:
            return
        yield env.timeout(gap_s)
        stats.jobs += 1
        store.put([env.now, 0])


def main(argv):
    p = parse(argv, __doc__.splitlines()[0])
    rng = random.Random(p.seed)
    stats = Stats(p.until_s, p.batches)
    env = simpy.Environment()
    store = simpy.Store(env)
    for _ in range(p.c):
        env.process(server(env, store, rng, p, stats))
    env.process(source(env, store, rng, p, stats))
    run_and_report(env, stats, "simpy-store")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
