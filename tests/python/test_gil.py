"""Simulations run without the GIL: while a run is inside the C++ core, another Python thread
runs. Deterministic, not a timing test: with a switch interval longer than any run, a thread
that holds the GIL is never made to drop it, so the main thread, woken while the worker is on
its way into the core, gets the GIL back before the worker finishes iff the core releases it.
The worker calls the core (drainsim._core) directly: the public functions then parse the JSON and
may import pandas, which reads files and so lets go of the GIL for reasons of its own."""

import sys
import threading

import pytest

import drainsim
from drainsim import _core

SCENARIO = "scenarios/monthly-rehearsal.json"


def calls():
    core = drainsim.load(SCENARIO)._core
    return {
        "run": lambda: _core.run_report(core, 1),
        "replicate": lambda: _core.replications_json(core, 2, None, 2, None, 0.95),
        "compare": lambda: _core.compare_json(core, core, 1, None, 1, None, None, False, 0.95),
    }


@pytest.mark.parametrize("name", ["run", "replicate", "compare"])
def test_the_gil_is_released_while_simulations_run(name):
    call = calls()[name]
    started = threading.Event()
    finished = []

    def worker():
        started.set()
        call()
        finished.append(True)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(100.0)  # longer than the run: no forced switch
    try:
        thread = threading.Thread(target=worker)
        thread.start()
        started.wait()
        # Here only if the worker let go of the GIL: inside the core if it releases it, else
        # after the worker finished.
        finished_when_main_ran = bool(finished)
        thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert finished == [True]
    assert not finished_when_main_ran, f"drainsim.{name} held the GIL for the whole run"
