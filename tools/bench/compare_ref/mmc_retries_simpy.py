"""The reference model of tools/bench/compare, written the way a SimPy 3 user would write it.

Run with Debian's interpreter and package: /usr/bin/python3 with python3-simpy3 (SimPy 3.0.x).

The reference model (the same text heads mmc_retries_handwritten.cc and tools/bench/RESULTS.md):
  - Poisson arrivals at rate lambda over [0, T): the first at an exponential gap from 0, each
    next one an exponential gap later, none at or after T. The count is what happened.
  - c identical servers and one FIFO queue; a server takes one job at a time.
  - Each attempt takes an exponential service time of mean 1/mu; at its end the attempt fails
    with probability p_fail, independently.
  - A job whose attempt number n (attempts made so far, this one included) is below
    attempts_max waits base * 2^(n-1) seconds after a failure (no jitter, no cap), then
    rejoins the TAIL of the queue; after its attempts_max-th failure it is dead-lettered.
  - Sojourn = arrival to successful completion, successful jobs only.

Idiomatic SimPy: a Resource of capacity c (its request queue is FIFO, so a retry's new
request goes to the tail), one process per job, env.timeout for service and backoff. The run
loop is env.step() until EmptySchedule, which is what env.run() does inside, plus a counter:
every event SimPy processes (timeouts, resource requests and releases, process starts and
ends) counts, so SimPy's events per job are not comparable with the other two; jobs/s is.
The other common idiom, long-lived servers pulling jobs from a Store, is
mmc_retries_simpy_store.py (it reuses Stats, parse and run_and_report from here); compare runs
both and measures drainsim against the faster.

Prints one JSON line: jobs, completed, dead_lettered, attempts, mean_sojourn_s, sojourn_se_s
(batch means over 30 batches by arrival time), events, wall_s (the run loop only).
"""

import argparse
import json
import math
import random
import sys
import time

import simpy
from simpy.core import EmptySchedule


class Stats:
    def __init__(self, until_s, batches):
        self.until_s = until_s
        self.jobs = 0
        self.completed = 0
        self.dead_lettered = 0
        self.attempts = 0
        self.sojourn_sum_s = 0.0
        self.batch_sum_s = [0.0] * batches
        self.batch_count = [0] * batches

    def record_sojourn(self, arrival_s, sojourn_s):
        self.completed += 1
        self.sojourn_sum_s += sojourn_s
        batches = len(self.batch_sum_s)
        batch = min(batches - 1, int(arrival_s / self.until_s * batches))
        self.batch_sum_s[batch] += sojourn_s
        self.batch_count[batch] += 1

    def sojourn_se_s(self):
        means = [s / n for s, n in zip(self.batch_sum_s, self.batch_count) if n > 0]
        if len(means) < 2:
            return 0.0
        m = sum(means) / len(means)
        var = sum((x - m) ** 2 for x in means) / (len(means) - 1)
        return math.sqrt(var / len(means))


def job(env, servers, rng, p, stats):
    arrival_s = env.now
    for attempt in range(1, p.attempts_max + 1):
        with servers.request() as request:
            yield request
            stats.attempts += 1
            yield env.timeout(rng.expovariate(p.mu))
            failed = rng.random() < p.p_fail
        if not failed:
            stats.record_sojourn(arrival_s, env.now - arrival_s)
            return
        if attempt < p.attempts_max:
            yield env.timeout(p.backoff_base_s * 2 ** (attempt - 1))
    stats.dead_lettered += 1


def source(env, servers, rng, p, stats):
    while True:
        gap_s = rng.expovariate(p.lambda_)
        if env.now + gap_s >= p.until_s:
            return
        yield env.timeout(gap_s)
        stats.jobs += 1
        env.process(job(env, servers, rng, p, stats))


def parse(argv, description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--lambda", dest="lambda_", type=float, required=True)
    parser.add_argument("--mu", type=float, required=True)
    parser.add_argument("--c", type=int, required=True)
    parser.add_argument("--until-s", type=float, required=True)
    parser.add_argument("--p-fail", type=float, required=True)
    parser.add_argument("--attempts-max", type=int, required=True)
    parser.add_argument("--backoff-base-s", type=float, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--batches", type=int, default=30)
    return parser.parse_args(argv)


def run_and_report(env, stats, impl):
    """Runs env until nothing is scheduled, counting events; prints the JSON line."""
    events = 0
    start = time.perf_counter()
    try:
        while True:
            env.step()
            events += 1
    except EmptySchedule:
        pass
    wall_s = time.perf_counter() - start

    assert stats.completed + stats.dead_lettered == stats.jobs, "a job did not finish"
    mean_s = stats.sojourn_sum_s / stats.completed if stats.completed else 0.0
    print(json.dumps({
        "impl": impl,
        "simpy_version": simpy.__version__,
        "jobs": stats.jobs,
        "completed": stats.completed,
        "dead_lettered": stats.dead_lettered,
        "attempts": stats.attempts,
        "mean_sojourn_s": round(mean_s, 9),
        "sojourn_se_s": round(stats.sojourn_se_s(), 9),
        "events": events,
        "wall_s": round(wall_s, 6),
    }))


def main(argv):
    p = parse(argv, __doc__.splitlines()[0])
    rng = random.Random(p.seed)
    stats = Stats(p.until_s, p.batches)
    env = simpy.Environment()
    servers = simpy.Resource(env, capacity=p.c)
    env.process(source(env, servers, rng, p, stats))
    run_and_report(env, stats, "simpy-process-per-job")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
