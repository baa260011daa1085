"""What every live test uses: skip (exit 77), fail, check, and the "nothing left" checks of a
run's private services (no process by pid, no port by connecting, no scratch directory)."""
import os
import socket
import sys
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


def assert_nothing_left(stdout, tmpdir, drainsim_pid, min_pids=3, min_ports=4):
    """min_pids, min_ports: RabbitMQ and epmd (2, 3), plus PostgreSQL (3, 4) by default."""
    pids, ports = parse_services(stdout)
    check(len(pids) >= min_pids and len(ports) >= min_ports, f"services reported pids {pids} and ports {ports}")
    deadline = time.time() + 10
    while time.time() < deadline and any(pid_alive(p) for p in pids):
        time.sleep(0.2)
    check(not any(pid_alive(p) for p in pids), f"no service process left (pids {pids})")
    check(not any(port_open(p) for p in ports), f"no service port still accepting (ports {ports})")
    left = processes_mentioning(f"drainsim-{drainsim_pid}-") + processes_mentioning(tmpdir)
    check(not left, f"no process of the run's node or scratch directory: {left}")
    check(not [d for d in os.listdir(tmpdir) if d.startswith("drainsim-live-")],
          f"scratch directory removed from {tmpdir}")
