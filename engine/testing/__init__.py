"""Tests a mechanic's author runs in their own suite: the contract check shipped with railspec
(as OpenSpiel's generic game tests and pgx's ``api_test`` are shipped with theirs).

    from railspec.testing import check_mechanic

    def test_toll_keeps_the_contract():
        check_mechanic(Toll)                         # its sample, on a small map
        check_mechanic(Toll, "maps/toll.rail")      # or a spec of the author's

:func:`check_mechanic` runs the round trips first, then plays: see its docstring and
docs/architecture.md ("Check it"). :func:`check_pair` plays two mechanics in one spec, one
route carrying both where both attach to routes; :func:`check_combination`, any number.
"""
from __future__ import annotations

from .contract import (
    CHECKS,
    ContractFailure,
    ContractReport,
    check_combination,
    check_mechanic,
    check_pair,
    combined_spec,
    pair_spec,
    sample_spec,
)

__all__ = ["CHECKS", "ContractFailure", "ContractReport", "check_combination", "check_mechanic", "check_pair",
           "combined_spec", "pair_spec", "sample_spec"]
