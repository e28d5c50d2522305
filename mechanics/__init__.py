"""The stock mechanics of the Ticket to Ride family, one folder each.

A mechanic (tunnels, stations, shares, …) is everything a map adds to the core game. Its
folder holds all of it: its statements, its rule record, its hooks in both engines, its
scoring, its invariants (docs/architecture.md, "Adding a mechanic"). The folders are
found by a scan of this package (:func:`railspec.compiler.mechanic.discover`); a mechanic
from another distribution registers under the ``railspec.mechanics`` entry-point group.
"""
