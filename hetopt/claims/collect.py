"""Collect the claims of every paper from the registry (each kind names its claims package)."""

from __future__ import annotations

from typing import Any

from ..errors import HetoptError
from ..registry import kinds
from .ledger import Claim, Conformance

__all__ = ["papers", "claims", "get_claim", "conformance", "modules"]


def papers() -> list[str]:
    """The kinds that have claims, in ledger order (the registry's order)."""
    return [name for name, kind in kinds().items() if kind.claims]


def modules(paper: str | None = None) -> list[tuple[str, Any]]:
    """``(kind, claims package)`` pairs of ``paper`` (or of every paper), in ledger order."""
    known = papers()
    if paper is not None and paper not in known:
        raise HetoptError(f"paper is {paper!r}; expected one of {', '.join(known)}")
    reg = kinds()
    return [(name, reg[name].load("claims")) for name in ([paper] if paper else known)]


def claims(paper: str | None = None) -> list[Claim]:
    """Every claim of ``paper`` (or of every paper), in ledger order."""
    return [c for _, mod in modules(paper) for c in mod.CLAIMS]


def get_claim(claim_id: str) -> Claim:
    """The claim with this id; ``HetoptError`` naming the close matches when there is none."""
    found = {c.id: c for c in claims()}
    if claim_id not in found:
        near = [i for i in found if claim_id.split(".")[0] in i][:5]
        raise HetoptError(f"no claim with id {claim_id!r}" + (f"; ids of that paper include {', '.join(near)}" if near else ""))
    return found[claim_id]


def conformance(paper: str | None = None) -> list[Conformance]:
    """The conformance checks of ``paper`` (or of every paper): counted apart from the claims."""
    return [c for _, mod in modules(paper) for c in getattr(mod, "CONFORMANCE", [])]
