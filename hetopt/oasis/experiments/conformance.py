"""Conformance checks of :mod:`hetopt.oasis` (``CONFORMANCE``): identities that cannot move but by a defect of ours.

* ``oasis2018.eq22.price_at_zero_use`` and ``oasis2018.eq22.price_at_capacity``: the price
  function (22) evaluated at zero use and at full capacity equals L (25)-(26) and U (23)-(24).
  (22) is ``L (U / L)^(g / c)``, so both hold by the formula itself: they were claims until
  issue 21 and compared a formula with itself, so they are conformance checks of
  :func:`hetopt.oasis.prices.price` against (22) now (counted apart, ``hetopt claims --conformance``).
"""

from __future__ import annotations

import numpy as np

from ...claims.ledger import Conformance, Outcome, Verdict
from ..prices import price, price_bounds
from ..validate import fig5_setting

__all__ = ["CONFORMANCE", "price_endpoints"]


def price_endpoints() -> tuple:
    """(bounds, max |ln P(0) - ln L1| or None when P(0) underflows, max |ln P(c) - ln U1|) on ``fig5_setting(seed=0)``."""
    inst = fig5_setting(seed=0)
    b = price_bounds(inst)
    cap = inst.worker_capacity[0]
    used = cap > 0
    lo = price(b.log_L1, b.log_U1, np.zeros_like(cap), cap)
    hi = price(b.log_L1, b.log_U1, cap, cap)
    # compare in logs: L1 itself can underflow a double
    with np.errstate(divide="ignore"):
        err_lo = float(np.max(np.abs(np.log(lo) - b.log_L1))) if np.all(lo > 0) else None
    err_hi = float(np.max(np.abs(np.log(hi[used]) - b.log_U1[used])))
    return b, err_lo, err_hi


def _check_price_zero() -> Outcome:
    b, err, _ = price_endpoints()
    ok = err is not None and err < 1e-9
    return Outcome(f"P(0) = L1, |ln P(0) - ln L1| = {err}", Verdict.REPRODUCED if ok else Verdict.UNEXPLAINED,
                   f"ln L1 = {b.log_L1:.3f} on fig5_setting(0)")


def _check_price_full() -> Outcome:
    b, _, err = price_endpoints()
    return Outcome(f"P(c) = U1, max |ln P(c) - ln U1| = {err:.2e}",
                   Verdict.REPRODUCED if err < 1e-9 else Verdict.UNEXPLAINED, f"ln U1 = {np.round(b.log_U1, 3).tolist()}")


CONFORMANCE = [
    Conformance("oasis2018.eq22.price_at_zero_use", "oasis",
                "hetopt.oasis.prices.price at zero use is L1 (eq. (22) at g = 0; compared in logarithms, L1 can be "
                "below the smallest double), on the Fig. 5 instance of seed 0.", _check_price_zero,
                reference="eq. (22) and (25) of the paper (an identity of the formula)"),
    Conformance("oasis2018.eq22.price_at_capacity", "oasis",
                "hetopt.oasis.prices.price at full capacity is U1^r (eq. (22) at g = c), on the Fig. 5 instance of "
                "seed 0.", _check_price_full, reference="eq. (22) and (23) of the paper (an identity of the formula)"),
]
