"""The live suite's shared RabbitMQ and PostgreSQL (a ctest fixture, tests/live/CMakeLists.txt).

Starting a private RabbitMQ costs 6-9 s; most live tests do not need one of their own, so one
pair serves them all: `drainsim live --serve-services --state-file F` (tools/drainsim/live_serve.h)
started by the fixture's setup test, its URLs read from F by the tests, which run with
`--amqp URL --postgres URL` (then drainsim declares and deletes only its run's own queues and
tables), and stopped by the fixture's cleanup test. Tests that need the broker's configuration
or its node (crash: consumer_timeout; restart: the node restarted) or that test the private path
itself (services, sigterm) keep their own pair.

  start(args, tmpdir)     the setup: F written by drainsim (the pair is up), or F = {"skipped":
                          why} and exit 77 where the services cannot start outside CI.
  state(path)             a test's view of F: skips with the setup's reason, fails when F is
                          missing (the setup failed or did not run: no hang, a clear message).
  assert_run_removed(...) a test's "nothing left": its run's queues, exchange, tables and
                          functions are gone from the shared servers (rabbitmqctl and psql).
  stop(args, tmpdir)      the cleanup: no run's object left on the servers, SIGTERM, then no
                          process, port, node or scratch directory left, F removed.
"""
import json
import os
import signal
import subprocess
import sys
import time

from live_common import assert_nothing_left, check, fail, pid_alive, skip

START_MAX_S = 120


def _running(pid):
    """pid_alive, but a zombie counts as ended: drainsim --serve-services is not this test's
    child (the setup test started it), so whoever reaps it may be slow or absent."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return pid_alive(pid)


def _log_path(state_path):
    return state_path + ".log"


def start(args, tmpdir):
    path = args.shared
    if os.path.exists(path):
        # A pair left by an interrupted suite watches this file: removing it stops that pair.
        os.remove(path)
        time.sleep(0.5)
    with open(_log_path(path), "w") as log:
        # Its own session, and no pipe to this test: ctest waits for the test's output to close.
        proc = subprocess.Popen([args.drainsim, "live", "--serve-services", "--state-file", path],
                                env=dict(os.environ, TMPDIR=tmpdir), stdin=subprocess.DEVNULL,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    started = time.time()
    while not os.path.exists(path) and proc.poll() is None and time.time() - started < START_MAX_S:
        time.sleep(0.1)
    with open(_log_path(path)) as f:
        print(f.read())
    if not os.path.exists(path):
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
            fail(f"the shared services not ready in {START_MAX_S} s")
        with open(_log_path(path)) as f:
            why = f.read().strip()
        if os.environ.get("CI") == "true":
            fail(f"services could not start in CI: {why}")
        with open(path, "w") as f:
            json.dump({"skipped": f"services cannot start here: {why}"}, f)
        skip(f"services cannot start here: {why}")
    with open(path) as f:
        s = json.load(f)
    check(s["drainsim_pid"] == proc.pid and proc.poll() is None,
          f"drainsim --serve-services (pid {proc.pid}) keeps them up")
    print(f"measured: shared services ready in {s['ready_s']:.1f} s")
    check(s["ready_s"] <= 60, f"ready in {s['ready_s']:.1f} s (the start-up bound is 60 s)")
    check(s["amqp_url"].startswith("amqp://guest:guest@127.0.0.1:")
          and "host=127.0.0.1" in s["postgres_url"], "loopback URLs")
    check(_run_objects(s, "") == ([], []), "no queue or table of a run on the fresh servers")


def state(path):
    if not os.path.exists(path):
        fail(f"no shared services ({path} missing): the fixture's setup test failed or did not run")
    with open(path) as f:
        s = json.load(f)
    if "skipped" in s:
        skip(s["skipped"])
    if not _running(s["drainsim_pid"]):
        fail(f"the shared services' drainsim (pid {s['drainsim_pid']}) is gone")
    return s


def live_options(s):
    return ["--amqp", s["amqp_url"], "--postgres", s["postgres_url"]]


def _rabbitmqctl(s, *commands):
    """The names each rabbitmqctl command lists, the commands run at once (each CLI call boots
    an Erlang VM: about 1.2 s)."""
    ctl = s["rabbitmq"]["rabbitmqctl"]
    env = dict(e.split("=", 1) for e in ctl["env"])
    procs = [subprocess.Popen(ctl["argv"] + command, env=env, cwd=ctl["cwd"],
                              user=ctl["user"] or None, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for command in commands]
    names = []
    for command, proc in zip(commands, procs):
        stdout, stderr = proc.communicate(timeout=60)
        if proc.returncode != 0:
            fail(f"rabbitmqctl {' '.join(command)}: exit {proc.returncode}: {stderr.strip()}")
        names += stdout.split()
    return names


def _psql(s, query):
    proc = subprocess.run(["psql", s["postgres_url"], "-Atc", query], capture_output=True,
                          text=True, timeout=60)
    if proc.returncode != 0:
        fail(f"psql {query!r}: exit {proc.returncode}: {proc.stderr.strip()}")
    return proc.stdout.split()


def _run_objects(s, run_id):
    """(queues and exchanges, tables and functions) of the run run_id ("": of any run) that are
    still on the shared servers."""
    prefix = run_id or "drainsim_live_"
    amqp = [n for n in _rabbitmqctl(s, ["list_queues", "name"], ["list_exchanges", "name"])
            if n.startswith(prefix)]
    sql = _psql(s, "SELECT tablename FROM pg_tables UNION ALL SELECT proname FROM pg_proc")
    return amqp, [n for n in sql if n.startswith(prefix)]


def assert_run_removed(s, out, stdout, private_postgres=False):
    """A run against the shared servers started nothing of its own (but its PostgreSQL with
    PRIVATE_POSTGRES) and left nothing there."""
    check("rabbitmq:" not in stdout and (private_postgres or "postgres:" not in stdout),
          "no private service started (the shared pair was used)")
    with open(os.path.join(out, "live.json")) as f:
        run_id = json.load(f)["run_id"]
    check(run_id.startswith("drainsim_live_"), f"the run's id {run_id}")
    amqp, sql = _run_objects(s, run_id)
    check(not amqp, f"the run's queues and exchange deleted from the shared broker ({amqp})")
    check(not sql, f"the run's tables and functions dropped from the shared database ({sql})")


def stop(args, tmpdir):
    path = args.shared
    if not os.path.exists(path):
        skip(f"no shared services to stop ({path} missing: see the setup test)")
    with open(path) as f:
        s = json.load(f)
    if "skipped" in s:
        os.remove(path)
        skip(s["skipped"])
    pid = s["drainsim_pid"]
    started = time.time()
    check(_running(pid), f"the shared services' drainsim (pid {pid}) still up at the end")
    amqp, sql = _run_objects(s, "")  # judged after the stop: a leftover must not keep it up
    listed_s = time.time() - started
    os.kill(pid, signal.SIGTERM)
    deadline = time.time() + 60
    while time.time() < deadline and _running(pid):
        time.sleep(0.1)
    with open(_log_path(path)) as f:
        log = f.read()
    print(log)
    check(not _running(pid), f"drainsim --serve-services (pid {pid}) ended after SIGTERM")
    print(f"measured: leftovers listed in {listed_s:.1f} s, stopped {time.time() - started:.1f} s "
          f"after the cleanup's start")
    check("services stopped in" in log, "it stopped the services")
    check(not os.path.exists(path), f"it removed {path}")
    node_pid = s["rabbitmq"]["node"].split("-")[1]
    assert_nothing_left(log, tmpdir, node_pid)
    check(not os.path.exists(s["scratch"]), f"scratch directory {s['scratch']} removed")
    check(not amqp and not sql,
          f"no run left a queue, exchange, table or function on the shared servers ({amqp}, {sql})")
    os.remove(_log_path(path))


if __name__ == "__main__":
    sys.exit("imported by live_test.py")
