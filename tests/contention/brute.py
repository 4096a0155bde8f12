"""Brute force for the contention-free problem on a fixed placement (tiny instances only).

Independent of the package's engines: it enumerates every order in which the tasks of the global
DAG can be started (forward and backward passes on their GPUs, one all-reduce per iteration of a
multi-server job on its servers' networks, the zero-length barrier of a single-server job taken
as soon as its backward passes end) and starts each task as early as its predecessors, its
resources and its job's arrival allow.  Every semi-active schedule is produced by the order of
its start times, and some optimal schedule is semi-active (the objective, the total JCT, is
regular), so the minimum over the orders is the optimum.  States reached by different orders
with the same finished tasks and the same times are merged (a memo), which keeps tiny instances
fast.  Times are the instance's floats, so the optimum is on the true data.
"""

from __future__ import annotations

from functools import cache

__all__ = ["brute_force_optimum", "n_tasks"]


def _tasks(inst, placement):
    gps = inst.gpus_per_server
    out = []  # (key, job, iteration, kind, resources, duration)
    for k, gpus in enumerate(placement):
        servers = tuple(sorted({int(g) // gps for g in gpus}))
        multi = len(servers) > 1
        for i in range(int(inst.iterations[k])):
            for g in gpus:
                out.append((("f", k, i, int(g)), k, i, "f", (("g", int(g)),), float(inst.t_f[k])))
                out.append((("b", k, i, int(g)), k, i, "b", (("g", int(g)),), float(inst.t_b[k])))
            if multi:
                out.append((("c", k, i), k, i, "c", tuple(("n", s) for s in servers), float(inst.comm_time(k))))
    return out


def n_tasks(inst, placement) -> int:
    """Forward, backward passes and all-reduces of the instance on this placement."""
    return len(_tasks(inst, placement))


def brute_force_optimum(inst, placement, *, max_tasks: int = 12) -> float:
    """The optimal total JCT of the contention-free problem on ``placement`` (module docstring)."""
    tasks = _tasks(inst, placement)
    if len(tasks) > max_tasks:
        raise ValueError(f"{len(tasks)} tasks: brute force is for at most {max_tasks}")
    index = {t[0]: j for j, t in enumerate(tasks)}
    multi = [len({int(g) // inst.gpus_per_server for g in p}) > 1 for p in placement]
    n_gpus = [len(p) for p in placement]
    iters = [int(x) for x in inst.iterations]
    arrival = [float(x) for x in inst.arrival]

    def preds(t):
        key, k, i, kind = t[0], t[1], t[2], t[3]
        if kind == "f":
            return ("sync", k, i - 1) if i > 0 else None
        if kind == "b":
            return index[("f", k, i, key[3])]
        return ("bs", k, i)

    resources = sorted({r for t in tasks for r in t[4]})
    rindex = {r: j for j, r in enumerate(resources)}

    @cache
    def best(done: frozenset, free: tuple, ends: tuple) -> float:
        # ends: (task index, end) of finished tasks whose end a successor still needs
        end = dict(ends)
        if len(done) == len(tasks):
            return 0.0
        result = float("inf")
        for j, t in enumerate(tasks):
            if j in done:
                continue
            key, k, i, kind, res, dur = t
            p = preds(t)
            if isinstance(p, int):
                if p not in done:
                    continue
                ready = end[p]
            elif p is None:
                ready = arrival[k]
            elif p[0] == "sync":
                ready = _sync_end(k, i - 1, done, end)
                if ready is None:
                    continue
            else:  # all backward passes of the iteration
                bs = [index[("b", k, i, int(g))] for g in placement[k]]
                if not all(b in done for b in bs):
                    continue
                ready = max(end[b] for b in bs)
            start = max([ready] + [free[rindex[r]] for r in res])
            finish = start + dur
            nfree = list(free)
            for r in res:
                nfree[rindex[r]] = finish
            ndone = done | {j}
            nend = dict(end)
            nend[j] = finish
            contrib = 0.0
            last = _job_done(k, ndone, nend)
            if last is not None:
                contrib = last - arrival[k]
            keep = tuple(sorted((x, e) for x, e in nend.items() if _needed(x, ndone)))
            result = min(result, contrib + best(ndone, tuple(nfree), keep))
        return result

    def _sync_end(k, i, done, end):
        if multi[k]:
            c = index[("c", k, i)]
            return end[c] if c in done else None
        bs = [index[("b", k, i, int(g))] for g in placement[k]]
        return max(end[b] for b in bs) if all(b in done for b in bs) else None

    def _job_done(k, done, end):
        i = iters[k] - 1
        if multi[k]:
            c = index[("c", k, i)]
            return end[c] if c in done and all(index[t[0]] in done for t in tasks if t[1] == k) else None
        bs = [index[("b", k, i, int(g))] for g in placement[k]]
        if all(index[t[0]] in done for t in tasks if t[1] == k):
            return max(end[b] for b in bs)
        return None

    def _needed(x, done):
        key, k, i, kind = tasks[x][0], tasks[x][1], tasks[x][2], tasks[x][3]
        if kind == "f":
            return index[("b", k, i, key[3])] not in done
        if kind == "b":  # needed by the all-reduce / barrier and by the next iteration's forwards
            if multi[k]:
                return index[("c", k, i)] not in done
            return i + 1 < iters[k] and not all(index[("f", k, i + 1, int(g))] in done for g in placement[k]) \
                or i + 1 == iters[k] and not all(index[t[0]] in done for t in tasks if t[1] == k)
        return i + 1 < iters[k] and not all(index[("f", k, i + 1, int(g))] in done for g in placement[k])

    del n_gpus
    return best(frozenset(), tuple(0.0 for _ in resources), ())
