"""Claims of Gavel (Narayanan et al., OSDI 2020): the round mechanism's claims live in
:mod:`hetopt.claims.gavel_mechanism` and are collected here."""

from .gavel_mechanism import CLAIMS as MECHANISM_CLAIMS
from .gavel_mechanism import SWEEPS as MECHANISM_SWEEPS

CLAIMS = [*MECHANISM_CLAIMS]
SWEEPS = {**MECHANISM_SWEEPS}
