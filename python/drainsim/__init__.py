"""drainsim from Python: load a scenario, run it, replicate it, compare two (docs/python.md).

Every function calls the library functions the `drainsim` command line calls, so a run's report
is the report.json `drainsim run` writes, byte for byte, and replicate() and compare() give what
`drainsim run --replications` and `drainsim compare` write to replications.json and compare.json.

    import drainsim
    scenario = drainsim.load("scenarios/monthly-rehearsal.json")
    result = drainsim.run(scenario, seed=7)
    result.report["time_to_empty_s"], result.series["depth"].max()

Simulations run without the GIL, so other Python threads carry on meanwhile; a run cannot be
interrupted with Ctrl-C (it ends when its simulated time does).
"""

import json
import os
import warnings

from . import _core

__all__ = ["load", "run", "replicate", "compare", "Scenario", "RunResult", "ScenarioError",
           "ScenarioWarning", "ModelError", "PendingMessagesMaxError", "__version__"]

__version__ = _core.__version__

# A run broke one of the model's invariants: a drainsim bug, never the scenario's (the CLI's
# exit code 3). A RuntimeError.
ModelError = _core.ModelError
# A run would have held more messages pending at once than the default cap (about 8.2e7): it
# was stopped there (the CLI's exit code 7). A MemoryError.
PendingMessagesMaxError = _core.PendingMessagesMaxError

# What load() calls a scenario given as a dict: report.json's scenario.path and its reproduce
# line, and the messages, name it.
DICT_PATH = "<dict>"


class ScenarioError(ValueError):
    """A scenario that does not load.

    problems: [(pointer, message)], one per problem, pointer a JSON pointer ("/drains/0/rate_per_s")
    or "" for the document as a whole. str(error): one line per problem, as `drainsim check`
    prints them ("scenarios/x.json: /drains/0/rate_per_s: must be > 0 (got -5)").
    """

    def __init__(self, message, problems):
        super().__init__(message)
        self.problems = problems


class ScenarioWarning(UserWarning):
    """A value that is legal but almost certainly a mistake (the CLI's plausibility warnings)."""


class Scenario:
    """A validated scenario, from load(). Immutable.

    name, path (as given to load, or "<dict>"), seed (the scenario's own), hash (of its
    canonical form, as report.json's scenario.hash), warnings ([(pointer, message)]).
    """

    __slots__ = ("_core", "warnings")

    def __init__(self, core, warnings_found):
        self._core = core
        self.warnings = warnings_found

    name = property(lambda self: self._core.name)
    path = property(lambda self: self._core.path)
    seed = property(lambda self: self._core.seed)
    hash = property(lambda self: self._core.hash)

    def to_dict(self):
        """The scenario as it was written (a new dict each call): edit it and load() it again."""
        return json.loads(self._core.document_json())

    def canonical(self):
        """The canonical form as a dict: every default filled in (`drainsim dump`)."""
        return json.loads(self._core.canonical_json())

    def __repr__(self):
        return f"<drainsim.Scenario {self.name!r} from {self.path!r}>"


class RunResult:
    """One run: report (report.json parsed), report_json (its exact text), series, passed.

    series: the sampled time series, report["series"], as a pandas DataFrame (one column per
    series, t_s among them, one row per sample) when pandas is importable, else as a dict of
    lists (column name -> values). passed: every expectation passed (the CLI's exit code 0).
    """

    __slots__ = ("report", "report_json", "series")

    def __init__(self, report_json):
        self.report_json = report_json
        self.report = json.loads(report_json)
        self.series = _series(self.report["series"])

    @property
    def passed(self):
        return all(e["passed"] for e in self.report["expectations"])

    def __repr__(self):
        r = self.report
        return (f"<drainsim.RunResult {r['scenario']['name']!r} seed {r['seed']} "
                f"fingerprint {r['fingerprint']}>")


def load(source):
    """A Scenario from a file (str or os.PathLike) or a dict (written as JSON and loaded by the
    same loader). Raises ScenarioError with every problem; warns (ScenarioWarning) once per
    plausibility warning."""
    if isinstance(source, dict):
        try:
            text = json.dumps(source, allow_nan=False)
        except ValueError as error:  # NaN or infinity: JSON has no such number
            raise ScenarioError(f"{DICT_PATH}: {error}", [("", str(error))]) from None
        outcome = _core.load_text(DICT_PATH, text)
    else:
        path = os.fspath(source)
        if not isinstance(path, str):
            raise TypeError(f"load() takes a str or os.PathLike path, or a dict (got {path!r})")
        outcome = _core.load_file(path)
    return _scenario_of(*outcome)


def run(scenario, seed=None):
    """Runs the scenario once with `seed` (default: the scenario's own): a RunResult."""
    scenario = _loaded(scenario)
    return RunResult(_core.run_report(scenario._core, _seed(seed)))


def replicate(scenario, n, seed=None, jobs=1, metrics=None, confidence=0.95):
    """n replications on seeds derived from `seed` (default: the scenario's), on `jobs` threads
    (the result is the same for every jobs): the dict of `drainsim run --replications n`'s
    replications.json. metrics: names as --metric takes them (default: the CLI's)."""
    scenario = _loaded(scenario)
    text = _core.replications_json(scenario._core, n, _seed(seed), jobs, _names(metrics),
                                   confidence)
    return json.loads(text)


def compare(a, b, n=30, seed=None, jobs=1, metrics=None, fail_if_worse=None, independent=False,
            confidence=0.95):
    """A and B replicated n times each on common random numbers (seed: default A's): the dict of
    `drainsim compare`'s compare.json. fail_if_worse: the gate's metrics (its verdict is in the
    dict; nothing is raised when B is worse). independent: B without common random numbers."""
    a, b = _loaded(a), _loaded(b)
    text = _core.compare_json(a._core, b._core, n, _seed(seed), jobs, _names(metrics),
                              _names(fail_if_worse), independent, confidence)
    return json.loads(text)


def _scenario_of(core, problems, warnings_found):
    if core is None:
        message = "\n".join(line for _, _, line in problems)
        raise ScenarioError(message, [(pointer, text) for pointer, text, _ in problems])
    for _, _, line in warnings_found:
        warnings.warn(line, ScenarioWarning, stacklevel=3)
    return Scenario(core, [(pointer, text) for pointer, text, _ in warnings_found])


def _loaded(scenario):
    """A Scenario as it is; a path or a dict loaded."""
    return scenario if isinstance(scenario, Scenario) else load(scenario)


def _seed(seed):
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int (got {seed!r})")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be in 0..2^64-1 (got {seed})")
    return seed


def _names(names):
    """Metric names as the CLI takes them: a list, or one string; each item split at commas."""
    if names is None:
        return None
    items = [names] if isinstance(names, str) else list(names)
    return [name for item in items for name in item.split(",") if name]


def _series(columns):
    try:
        import pandas
    except ImportError:
        return {name: list(values) for name, values in columns.items()}
    return pandas.DataFrame(columns)
