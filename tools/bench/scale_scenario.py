#!/usr/bin/python3
"""Scale a drainsim scenario's volume by a factor K, keeping its dynamics per unit.

Usage: tools/bench/scale_scenario.py SCENARIO.json K > scaled.json

What scales by K (so that K copies of the system side by side is what runs): producer rates
and fanout/burst counts, backlog counts, workers.count, database.connections, the downstream
rate limit and burst, poison/synthetic-failure counts, crash rates, drain rates, bursts and
limits, depth alerts.
What does not: per-message behaviour (handlers, retry policy, broker timeouts), probabilities,
fault windows, and the live traffic (users of the database, not queue volume). run.events_max
is raised so the scaled run is not cut short. Standard library only: runs with Debian's
python3 and nothing else.
"""
import json
import math
import sys


def scale_int(value, k):
    return max(1, int(round(value * k)))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        s = json.load(f)
    k = float(sys.argv[2])
    for p in s.get("producers", []):
        for sched in ("constant", "poisson"):
            if sched in p:
                p[sched]["rate_per_s"] *= k
        for sched in ("fanout", "burst"):
            if sched in p:
                p[sched]["count"] = scale_int(p[sched]["count"], k)
    for b in s.get("backlog", []):
        b["count"] = scale_int(b["count"], k)
    s["workers"]["count"] = scale_int(s["workers"]["count"], k)
    if s.get("database"):
        s["database"]["connections"] = scale_int(s["database"]["connections"], k)
    if s.get("downstream"):
        d = s["downstream"]
        if d.get("rate_limit_per_s") is not None:
            d["rate_limit_per_s"] *= k
            if "burst" in d:
                d["burst"] = scale_int(d["burst"], k)
    for f in s.get("faults", []):
        if f.get("count") is not None:
            f["count"] = scale_int(f["count"], k)
        if f.get("type") == "db_connections":
            f["connections"] = scale_int(f["connections"], k)
        if f.get("type") == "downstream_rate_limit":
            f["rate_limit_per_s"] *= k
            if "burst" in f:
                f["burst"] = scale_int(f["burst"], k)
        if f.get("type") == "worker_crash" and f.get("rate_per_h") is not None:
            f["rate_per_h"] *= k  # a fleet-wide rate: K times the consumers crash K times as often
    for d in s.get("drains", []):
        for field in ("rate_per_s", "rate_min_per_s", "rate_max_per_s", "increase_per_s"):
            if d.get(field) is not None:
                d[field] *= k
        for field in ("limit", "burst"):
            if d.get(field) is not None:
                d[field] = scale_int(d[field], k)
    alerts = s.get("alerts", {})
    for field in ("depth", "dlq_depth"):
        if alerts.get(field) is not None:
            alerts[field] = scale_int(alerts[field], k)
    run = s["run"]
    run["events_max"] = int(min(1e11, max(run.get("events_max", 5e7), 200 * k * 1e6)))
    s["name"] = f"{s['name']}-x{sys.argv[2]}"
    json.dump(s, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
