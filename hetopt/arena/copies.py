"""A round in which some job runs as several gangs (copies): HadarE's forked copies, Liu et al.'s elastic workers.

A placement policy whose class sets ``copies = True`` may give a job a
:class:`~hetopt.arena.protocol.Copies` of gangs; each copy is a whole gang of the job's
``scale_factor`` GPUs.  :func:`start_copies` starts such a round: the job's remaining iterations
are divided among its copies in proportion to their rates (HadarE's Job Tracker, Liu et al.'s
proportional split (12)), in whole iterations (largest remainders, the fractional rest to the
largest share), each copy runs ``min(its share, int(T x budget))`` iterations, and the copies'
progress adds up.  For the completion bookkeeping of :class:`~hetopt.arena.execution.RoundRunner`
the copies of a job are one :class:`~hetopt.arena.execution.Gang` (their steps summed, finishing
with the last copy); the recorded round lists every copy.  A copy pays the restart delay unless
its servers are those of one of the job's gangs in the previous round.  Only placement policies
make copies, so no mechanism row (Gavel's time credits) is involved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import HetoptError
from .execution import Gang, Round

if TYPE_CHECKING:
    from .execution import RoundRunner

__all__ = ["start_copies", "split_shares"]

Placed = list[tuple[int, tuple[int, ...], Any]]


def split_shares(remaining: float, rates: list[float]) -> list[float]:
    """``remaining`` iterations divided in proportion to ``rates``, in whole iterations where it can be.

    Each share is the floor of its proportional part; the whole iterations left go one each to the
    largest fractional parts (ties to the earlier copy), and a fractional rest of ``remaining`` to
    the largest share.  The shares add up to ``remaining``.
    """
    total = float(sum(rates))
    exact = [remaining * r / total for r in rates]
    base = [float(np.floor(e)) for e in exact]
    left = remaining - sum(base)
    for i in sorted(range(len(rates)), key=lambda i: (-(exact[i] - base[i]), i)):
        if left < 1.0:
            break
        base[i] += 1.0
        left -= 1.0
    if left > 0.0:
        base[int(np.argmax(exact))] += left
    return base


def _servers(runner: RoundRunner, placed: Placed) -> list[dict[int, int]]:
    """Servers of every gang: given counts as they are; a copy given by type keeps one of its job's last servers."""
    w = runner.w
    free, out = runner.given_servers(placed)
    for i, (_, mem, where) in enumerate(placed):
        if out[i] is not None:
            continue
        j, r, n = mem[0], int(where), int(w.scale_factor[mem[0]])
        for prev in sorted(_previous(runner, j)):
            if sum(c for _, c in prev) == n and all(w.server_type[s] == r and free[s] >= c for s, c in prev):
                for s, c in prev:
                    free[s] -= c
                out[i] = dict(prev)
                break
        else:
            out[i] = runner._place(mem, r, free)
    return [o for o in out if o is not None]


def _previous(runner: RoundRunner, j: int) -> frozenset[tuple[tuple[int, int], ...]]:
    """The server sets of job ``j``'s gangs in the previous round."""
    if runner.copy_prev_at == runner.state.index - 1 and j in runner.copy_prev:
        return runner.copy_prev[j]
    prev = runner.prev.get(j)
    return frozenset() if prev is None else frozenset([prev])


def _rates(runner: RoundRunner, placed: Placed, servers: list[dict[int, int]] | None) -> list[float]:
    """Iterations/s of every gang: its type's throughput (the slowest of a mixed gang), slowed by contention."""
    w, T = runner.w, runner.T
    penalty = runner._penalty(servers, [p[1] for p in placed]) if servers is not None and runner.opt.contention \
        else None
    rates = []
    for i, (_, mem, where) in enumerate(placed):
        j = mem[0]
        if isinstance(where, (int, np.integer)):
            thr = T[j][int(where)]
        else:
            thr = min(T[j][q] for q in set(w.server_type[np.asarray(where) > 0].tolist()))
        if penalty is not None and penalty[i] > 0:
            thr = 1.0 / (1.0 / thr + penalty[i])
        rates.append(thr)
    return rates


def start_copies(runner: RoundRunner, placed: Placed, now: float, n_present: int) -> list[Gang]:
    """:meth:`RoundRunner.start` for a round with copies (the module docstring); one Gang per job."""
    opt = runner.opt
    servers = _servers(runner, placed) if runner.servers else None
    rates = _rates(runner, placed, servers)
    delays = [0.0] * len(placed)
    mine: list[tuple[tuple[int, int], ...] | None] = [None] * len(placed)
    if servers is not None:
        for i, (_, mem, _) in enumerate(placed):
            mine[i] = tuple(sorted(servers[i].items()))
            if opt.restart_delay > 0 and mine[i] not in _previous(runner, mem[0]):
                delays[i] = opt.restart_delay
    by_job: dict[int, list[int]] = {}
    for i, (_, mem, _) in enumerate(placed):
        by_job.setdefault(mem[0], []).append(i)
    steps = [0.0] * len(placed)
    for j, idx in by_job.items():
        left = runner.total[j] - runner.run_steps[j]
        caps = [float(int(rates[i] * (opt.round_length - delays[i]))) for i in idx]
        if any(c <= 0 for c in caps):
            i = idx[caps.index(min(caps))]
            raise HetoptError(f"arena: job {j} runs int({rates[i]:.6g} x {opt.round_length - delays[i]:g}) = 0 steps "
                              "per round on a copy's GPUs; a round cannot advance it")
        shares = split_shares(left, [rates[i] * (opt.round_length - delays[i]) for i in idx])
        for i, cap, share in zip(idx, caps, shares, strict=True):
            steps[i] = min(cap, share)
    return _book(runner, placed, now, n_present, rates, delays, steps, servers, mine, by_job)


def _book(runner: RoundRunner, placed: Placed, now: float, n_present: int, rates: list[float], delays: list[float],
          steps: list[float], servers: list[dict[int, int]] | None, mine: list[Any],
          by_job: dict[int, list[int]]) -> list[Gang]:
    """The round's accounting (busy time, restarts, isolated time, attained service, records) and its Gangs."""
    w, opt = runner.w, runner.opt
    record: list[dict[str, Any]] = []
    gangs: list[Gang] = []
    prev_type = runner.state.previous
    prev_type[:] = -1
    new_prev: dict[int, tuple[tuple[int, int], ...]] = {}
    copy_prev: dict[int, frozenset[tuple[tuple[int, int], ...]]] = {}
    for j, idx in by_job.items():
        run = [i for i in idx if steps[i] > 0]  # a copy left without a share does not run
        finish = now
        gpus = int(w.scale_factor[j])
        for i in run:
            end = now + delays[i] + steps[i] / rates[i]
            finish = max(finish, end)
            runner.busy += gpus * (end - now)
            runner.compute += gpus * (end - now - delays[i])
            runner.state.attained[j] += gpus * (end - now)
            runner.isolated[j] += steps[i] * max(runner.C, n_present * gpus) / runner.tc[j]
            runner.restarts += delays[i] > 0
            where = placed[i][2]
            r = int(where) if isinstance(where, (int, np.integer)) else _type_of(w, where)
            if opt.record_rounds and servers is not None:
                record.append({"jobs": [j], "type": r, "servers": sorted([s, c] for s, c in servers[i].items()),
                               "steps": [float(steps[i])], "finish": end, "delay": delays[i]})
        if not run:
            continue
        first = placed[run[0]][2]
        prev_type[j] = int(first) if isinstance(first, (int, np.integer)) else _type_of(w, first, mixed=False)
        if servers is not None:
            new_prev[j] = mine[run[0]]
            copy_prev[j] = frozenset(mine[i] for i in run)
        gangs.append(Gang(finish, -1, (j,), -1, [float(sum(steps[i] for i in run))],
                          (-finish, 0, runner.gid[j])))
    if servers is not None:
        runner.prev = new_prev
        runner.copy_prev, runner.copy_prev_at = copy_prev, runner.state.index
    if opt.record_rounds:
        runner.rounds.append(Round(now, max((g.finish for g in gangs), default=now), record))
    return gangs


def _type_of(w: Any, counts: Any, *, mixed: bool = True) -> int:
    """The type of a gang given as GPUs per server: -1 for mixed types (``mixed``), else their first."""
    types = sorted(set(w.server_type[np.asarray(counts) > 0].tolist()))
    return types[0] if len(types) == 1 or not mixed else -1
