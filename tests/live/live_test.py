#!/usr/bin/env python3
"""The live suite (ctest -L live): `drainsim live` against real RabbitMQ and PostgreSQL.

Modes (one ctest test each):
  services   --check-services: both come up, and afterwards no process (by pid) and no port
             (by connecting) of theirs is left, and their scratch directory is gone.
  poison     scenarios/live-poison.json: exact counts (2,000 published, 1,990 acked, 10 in the
             DLQ with reason delivery_limit, human needed 10, lost 0, each poison message
             delivered exactly delivery_limit + 1 = 6 times, the others once), then nothing left.
  sigterm    the same scenario, SIGTERM once deliveries have started: exit 2, and nothing left.
  crash      scenarios/live-crash.json: workers crash between commit and ack (the connection
             dropped, the work committed and unacked) and acks are lost (never sent; RabbitMQ's
             consumer timeout closes the channel): the crashes, lost acks and the duplicates that
             followed them equal the simulation's; duplicates found in the database for the
             `none` kind, suppressed by the claim row for the `claim` kind; lost 0; nothing left.
  refuse     a scenario with an unsupported fault is refused at its JSON pointer (exit 2), with
             no service started (needs no broker).

Exit 77 (ctest: skipped) with the reason when the services are not installed, when they cannot
start outside CI (CI installs them, so there a failure to start fails), or when --skip says so.
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

SKIP = 77


def skip(reason):
    print(f"SKIPPED: {reason}")
    sys.exit(SKIP)


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print(f"ok: {message}")


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie is dead for our purpose only if reaped; report it as alive (it would be a leak).
    return True


def port_open(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def processes_mentioning(text):
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in cmd:
            found.append(f"{entry}: {cmd[:120]}")
    return found


def parse_services(stdout):
    """pids and ports from the 'rabbitmq: ...' and 'postgres: ...' lines."""
    pids, ports = [], []
    for line in stdout.splitlines():
        words = line.replace("(", " ").split()
        if not words or words[0] not in ("rabbitmq:", "postgres:"):
            continue
        for i, w in enumerate(words[:-1]):
            if w == "pid":
                pids.append(int(words[i + 1]))
            elif w in ("port", "dist_port"):
                ports.append(int(words[i + 1]))
    return pids, ports


def assert_nothing_left(stdout, tmpdir, drainsim_pid):
    pids, ports = parse_services(stdout)
    check(len(pids) >= 3 and len(ports) >= 4, f"services reported pids {pids} and ports {ports}")
    deadline = time.time() + 10
    while time.time() < deadline and any(pid_alive(p) for p in pids):
        time.sleep(0.2)
    check(not any(pid_alive(p) for p in pids), f"no service process left (pids {pids})")
    check(not any(port_open(p) for p in ports), f"no service port still accepting (ports {ports})")
    left = processes_mentioning(f"drainsim-{drainsim_pid}-") + processes_mentioning(tmpdir)
    check(not left, f"no process of the run's node or scratch directory: {left}")
    check(not [d for d in os.listdir(tmpdir) if d.startswith("drainsim-live-")],
          f"scratch directory removed from {tmpdir}")


def services_or_skip(drainsim, env):
    if not os.path.exists("/usr/lib/rabbitmq/bin/rabbitmq-server"):
        skip("rabbitmq-server not installed (tools/test installs it: Debian rabbitmq-server)")
    if not any(os.path.exists(f"/usr/lib/postgresql/{v}/bin/postgres") for v in
               (os.listdir("/usr/lib/postgresql") if os.path.isdir("/usr/lib/postgresql") else [])):
        skip("PostgreSQL server not installed (tools/test installs it: Debian postgresql)")


def run_services(args, env, tmpdir):
    started = time.time()
    proc = subprocess.run([args.drainsim, "live", "--check-services"], env=env,
                          capture_output=True, text=True, timeout=180)
    print(proc.stdout + proc.stderr)
    if proc.returncode != 0:
        if os.environ.get("CI") == "true":
            fail(f"services could not start in CI: {proc.stderr.strip()}")
        skip(f"services cannot start here: {proc.stderr.strip()}")
    ready = float(proc.stdout.split("services ready in ")[1].split()[0])
    print(f"measured: services ready in {ready:.1f} s, whole check {time.time() - started:.1f} s")
    check(ready <= 60, f"services ready in {ready:.1f} s (the start-up bound is 60 s)")
    # The pid of drainsim itself is not printed; the node name carries it: match the node.
    node = [w for w in proc.stdout.split() if w.startswith("drainsim-") and "@" in w]
    drainsim_pid = node[0].split("-")[1] if node else "none"
    assert_nothing_left(proc.stdout, tmpdir, drainsim_pid)


def run_poison(args, env, tmpdir):
    out = os.path.join(args.work, "poison")
    proc = subprocess.Popen([args.drainsim, "live", args.scenario, "--out", out,
                             "--wall-max-s", "120", "--settle-max-s", "60"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stdout, stderr = proc.communicate(timeout=300)
    print(stdout + stderr)
    if proc.returncode == 2 and "could not start" in stderr and os.environ.get("CI") != "true":
        skip(f"services cannot start here: {stderr.strip()}")
    check(proc.returncode == 0, f"drainsim live exits 0 (got {proc.returncode})")
    with open(os.path.join(out, "live.json")) as f:
        live = json.load(f)
    limit = live["broker"]["delivery_limit"]
    check(live["broker"]["queue_type"] == "quorum" and limit == 5, "quorum queue, x-delivery-limit 5")
    check(live["published"] == 2000, f"published 2000 (got {live['published']})")
    check(live["acked"] == 1990, f"acked 1990 (got {live['acked']})")
    check(live["dead_lettered"] == 10, f"10 in the DLQ (got {live['dead_lettered']})")
    check(live["dlq_by_reason"] == {"delivery_limit": 10}, f"DLQ reasons {live['dlq_by_reason']}")
    check(live["human_needed"] == 10, f"human needed 10 = the poison messages (got {live['human_needed']})")
    check(live["lost"] == 0 and live["lost_ids"] == [], "lost 0")
    check(live["unfinished"] == 0 and live["double_ids"] == [], "nothing unfinished, nothing in two places")
    check(live["duplicate_keys"] == 0 and live["executions"] == 1990, "1,990 executions, no key twice")
    check(all(c["passed"] for c in live["checks"]), "every exact count equals the simulation's")
    deliveries = {}
    with open(os.path.join(out, "live-events.jsonl")) as f:
        for line in f:
            e = json.loads(line)
            if e["event"] == "delivery":
                deliveries[e["id"]] = deliveries.get(e["id"], 0) + 1
    poison = {e for e, n in deliveries.items() if n != 1}
    check(len(poison) == 10, f"10 messages delivered more than once (got {len(poison)})")
    check(all(deliveries[i] == limit + 1 for i in poison),
          f"each poison message delivered exactly delivery_limit + 1 = {limit + 1} times "
          f"(RabbitMQ dead-letters the return that makes the count exceed the limit)")
    check(len(deliveries) == 2000, "every published message delivered")
    assert_nothing_left(stdout, tmpdir, str(proc.pid))


def run_sigterm(args, env, tmpdir):
    out = os.path.join(args.work, "sigterm")
    os.makedirs(out, exist_ok=True)
    events = os.path.join(out, "live-events.jsonl")
    if os.path.exists(events):
        os.remove(events)
    proc = subprocess.Popen([args.drainsim, "live", args.scenario, "--out", out], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 150
    started = False
    while time.time() < deadline and proc.poll() is None:
        if os.path.exists(events) and os.path.getsize(events) > 0:
            with open(events) as f:
                started = any('"delivery"' in line for line in f)
            if started:
                break
        time.sleep(0.2)
    if proc.poll() is not None:
        stdout, stderr = proc.communicate()
        print(stdout + stderr)
        if "could not start" in stderr and os.environ.get("CI") != "true":
            skip(f"services cannot start here: {stderr.strip()}")
        fail(f"drainsim live ended (exit {proc.returncode}) before it could be interrupted")
    check(started, "deliveries started before SIGTERM")
    time.sleep(1)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=90)
    print(stdout + stderr)
    check(proc.returncode == 2, f"exit 2 after SIGTERM (got {proc.returncode})")
    check("interrupted" in stderr, "says it was interrupted")
    assert_nothing_left(stdout, tmpdir, str(proc.pid))


def run_refuse(args, env):
    proc = subprocess.run([args.drainsim, "live", args.scenario], env=env, capture_output=True,
                          text=True, timeout=60)
    print(proc.stdout + proc.stderr)
    check(proc.returncode == 2, f"exit 2 (got {proc.returncode})")
    for needle in ("/faults/1/type: db_slowdown is not supported by drainsim live yet",
                   "/broker/on_visibility_timeout: ack_loss live needs on_visibility_timeout "
                   "close_channel",
                   "/retry/delivery: delivery republish is not supported",
                   "/drains/0: a drain plan is not supported"):
        check(needle in proc.stderr, f"refused: {needle}")
    check("/faults/2/type" not in proc.stderr, "worker_crash accepted")
    check("rabbitmq:" not in proc.stdout, "no service started")


def run_crash(args, env, tmpdir):
    out = os.path.join(args.work, "crash")
    started = time.time()
    proc = subprocess.Popen([args.drainsim, "live", args.scenario, "--out", out,
                             "--wall-max-s", "120", "--settle-max-s", "30"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stdout, stderr = proc.communicate(timeout=300)
    print(stdout + stderr)
    print(f"measured: whole run {time.time() - started:.1f} s")
    if proc.returncode == 2 and "could not start" in stderr and os.environ.get("CI") != "true":
        skip(f"services cannot start here: {stderr.strip()}")
    check(proc.returncode == 0, f"drainsim live exits 0 (got {proc.returncode})")
    with open(os.path.join(out, "live.json")) as f:
        live = json.load(f)
    check(all(c["passed"] for c in live["checks"]), "every exact count equals the simulation's")
    names = {c["name"] for c in live["checks"]}
    check({"crashes", "crash_after_commit", "acks_lost", "duplicates_after_fault",
           "suppressed_after_fault"} <= names, f"the fault checks are judged ({sorted(names)})")
    faults = live["faults"]["live"]
    check(faults["crashes"] == 4 and faults["crash_after_commit"] == 3,
          f"4 crashes, 3 between commit and ack (got {faults['crashes']}, "
          f"{faults['crash_after_commit']})")
    check(faults["acks_lost"] > 0, f"acks lost: {faults['acks_lost']}")
    check(faults["channel_closes"] > 0, "the consumer timeout closed a channel")
    check(faults["duplicates_after_fault"] > 0 and live["duplicate_keys"] > 0,
          f"duplicates found for the none kind: {faults['duplicates_after_fault']} after a fault, "
          f"{live['duplicate_keys']} keys with two rows in the executions table")
    check(faults["suppressed_after_fault"] > 0 and live["suppressed"] > 0,
          f"duplicates suppressed for the claim kind: {faults['suppressed_after_fault']}")
    check(live["lost"] == 0 and live["unfinished"] == 0 and live["double_ids"] == [],
          "lost 0, nothing unfinished")
    check(live["acked"] == live["published"] == 400, "400 published, 400 acked")
    # The claim kind never commits twice: a message whose redelivery was suppressed (a purge)
    # has one commit, and the keys committed twice are emails.
    claim_ids, commits = set(), {}
    with open(os.path.join(out, "live-events.jsonl")) as f:
        for line in f:
            e = json.loads(line)
            if e["event"] == "commit":
                commits[e["id"]] = commits.get(e["id"], 0) + 1
            elif e["event"] == "suppressed":
                claim_ids.add(e["id"])
    check(claim_ids and all(commits.get(i) == 1 for i in claim_ids),
          "no suppressed (claim) message committed twice")
    assert_nothing_left(stdout, tmpdir, str(proc.pid))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["services", "poison", "sigterm", "refuse", "crash"])
    parser.add_argument("--drainsim", required=True)
    parser.add_argument("--scenario")
    parser.add_argument("--work", required=True)
    parser.add_argument("--skip", default="")
    args = parser.parse_args()
    if args.skip:
        skip(args.skip)
    os.makedirs(args.work, exist_ok=True)
    tmpdir = tempfile.mkdtemp(prefix=f"tmp-{args.mode}-", dir=args.work)
    os.chmod(tmpdir, 0o755)  # the services' users must reach their scratch directories
    env = dict(os.environ, TMPDIR=tmpdir)
    if args.mode == "refuse":
        run_refuse(args, env)
    else:
        services_or_skip(args.drainsim, env)
        {"services": run_services, "poison": run_poison, "sigterm": run_sigterm,
         "crash": run_crash}[args.mode](args, env, tmpdir)
    os.rmdir(tmpdir)
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
