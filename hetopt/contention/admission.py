"""Admission of ready communication tasks: AdaDUAL (Algorithm 2) and the SRSF(n) rules.

Every admission rule has the same signature::

    rule(server_tasks, remaining, m_new, b, eta) -> bool

``server_tasks`` holds, for each server the new task ``c_new`` would use, the identifiers
of the communication tasks running on it; ``remaining[task]`` is the message size (MB)
that task still has to transfer; ``m_new`` is the size of ``c_new``.  The rule says
whether ``c_new`` starts now.

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Algorithm 2 and Section V-A
(baselines SRSF(n)).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from functools import partial

from ..errors import ArgumentError
from ..inputs import check_positive, check_size
from .accounting import QueryLog
from .two_task import _starts_below, _threshold_of

__all__ = ["AdmissionRule", "adadual", "srsf_rule", "make_admission", "lazy_rule"]

AdmissionRule = Callable[[Sequence[Collection[Hashable]], Mapping[Hashable, float], float, float, float], bool]
#: ``decide(server_tasks, remaining, m_new, b, eta) -> (start, keys read)``, ``remaining`` a function of a task
LazyRule = Callable[[Sequence[Collection[int]], Callable[[int], float], float, float, float], tuple[bool, list[int]]]


def adadual(
    server_tasks: Sequence[Collection[Hashable]], remaining: Mapping[Hashable, float], m_new: float, b: float, eta: float
) -> bool:
    """AdaDUAL (Algorithm 2): accept a new communication task adaptively.

    ``max_task`` is the largest number of running tasks on a server of ``c_new`` (lines
    2-7).  With none, start (lines 8-10); with more than one, wait (lines 19-21); with
    exactly one, start iff ``M_new / M_old < b / (2 (b + eta))`` (Theorem 2, eq. (13);
    lines 11-18).

    Notes
    -----
    When ``max_task == 1`` the servers of ``c_new`` may carry *different* single tasks
    (one on each server).  Lines 2-7 then collect only the first of them into
    ``C_old``; we apply the test of line 13 to every one of them and start ``c_new`` only
    if it passes for all (a task sharing two servers with two different tasks interferes
    with both).
    """
    _check_query(server_tasks, remaining, m_new, b, eta)
    return _adadual(server_tasks, remaining, m_new, b, eta)


def _adadual(server_tasks, remaining, m_new, b, eta) -> bool:
    """:func:`adadual` on arguments known to be valid: :func:`_adadual_lazy` reading the mapping."""
    return _adadual_lazy(server_tasks, remaining.__getitem__, m_new, b, eta)[0]


def srsf_rule(
    server_tasks: Sequence[Collection[Hashable]],
    remaining: Mapping[Hashable, float],
    m_new: float,
    b: float,
    eta: float,
    *,
    n: int,
) -> bool:
    """SRSF(n)'s rule: start iff every server of ``c_new`` carries fewer than ``n`` tasks.

    SRSF(1) avoids all contention; SRSF(2) and SRSF(3) accept 2- and 3-way contention
    blindly (Section V-A).
    """
    _check_query(server_tasks, remaining, m_new, b, eta)
    return _srsf(server_tasks, remaining, m_new, b, eta, n=check_size(n, "n"))


def _srsf(server_tasks, remaining, m_new, b, eta, *, n: int) -> bool:
    """:func:`srsf_rule` on arguments known to be valid."""
    return max(map(len, server_tasks), default=0) < n


def lazy_rule(rule: AdmissionRule) -> LazyRule:
    """``rule`` as the simulator asks it: the remaining sizes read through a function, the keys read returned.

    A built-in rule decides without its argument checks (the simulator's queries come from a
    checked instance) and without a :class:`~hetopt.contention.accounting.QueryLog` per query;
    any other rule reads a log. Either way the same reads in the same order, which the authors'
    accounting counts.
    """
    if rule is adadual:
        return _adadual_lazy
    if isinstance(rule, partial) and rule.func is srsf_rule and not rule.args and set(rule.keywords) == {"n"}:
        return partial(_srsf_lazy, n=check_size(rule.keywords["n"], "n"))

    def asked(server_tasks, remaining, m_new, b, eta) -> tuple[bool, list[int]]:
        log = QueryLog.over(server_tasks, remaining)
        return rule(server_tasks, log, m_new, b, eta), log.read
    return asked


def _adadual_lazy(server_tasks, remaining, m_new, b, eta) -> tuple[bool, list[int]]:
    """AdaDUAL's decision reading ``remaining(c)``, and the running tasks it read.

    ``max_task`` is the most tasks running on a server of the new one (lines 2-7): none, start;
    more than one, wait; exactly one, start iff every running task c passes eq. (13) against its
    remaining size, asked once per task in the set's order until one fails (lines 11-18).
    """
    max_task = max(map(len, server_tasks), default=0)
    if max_task == 0:
        return True, []
    if max_task > 1:
        return False, []
    threshold = _threshold_of(b, eta)  # eq. (13)
    read = []
    for c in set().union(*server_tasks):
        read.append(c)
        if not _starts_below(m_new, remaining(c), threshold):
            return False, read
    return True, read


def _srsf_lazy(server_tasks, remaining, m_new, b, eta, *, n: int) -> tuple[bool, list[int]]:
    """:func:`_srsf`, which reads nothing."""
    return _srsf(server_tasks, remaining, m_new, b, eta, n=n), []


def _check_query(server_tasks: object, remaining: object, m_new: object, b: object, eta: object) -> None:
    """The arguments every admission rule gets (ArgumentError naming the first bad one)."""
    if not isinstance(server_tasks, Sequence) or isinstance(server_tasks, str) or not server_tasks or not all(
            isinstance(t, Collection) and not isinstance(t, str) for t in server_tasks):
        raise ArgumentError(f"server_tasks is {server_tasks!r:.60}; expected the tasks on each server of the new "
                            "all-reduce: a non-empty sequence of collections")
    if not isinstance(remaining, Mapping):
        raise ArgumentError(f"remaining is {remaining!r:.60}; expected a mapping task -> MB left")
    check_positive(m_new, "m_new", allow_zero=True)
    check_positive(b, "b")
    check_positive(eta, "eta", allow_zero=True)


def check_admission_name(name: object, argument: str = "name") -> str:
    """``name`` if it names a built-in rule ("adadual" or "srsfN", N >= 1), else ArgumentError naming ``argument``."""
    if isinstance(name, str) and (name == "adadual" or (name.startswith("srsf") and name[4:].isdigit()
                                                         and int(name[4:]) >= 1)):
        return name
    raise ArgumentError(f"{argument} is {name!r}; expected 'adadual' or 'srsfN' with N >= 1")


def make_admission(name: str) -> AdmissionRule:
    """An admission rule by name: "adadual", or "srsf1", "srsf2", "srsf3", ... ("srsfN", N >= 1).

    Raises
    ------
    ArgumentError
        Any other name.
    """
    name = check_admission_name(name)
    if name == "adadual":
        return adadual
    return partial(srsf_rule, n=int(name[4:]))
