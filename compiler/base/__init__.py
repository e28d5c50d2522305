"""The bottom layer: what every other part of railspec shares and nothing of railspec is
imported by it. The error types (:mod:`.errors`), the game's random generator
(:mod:`.rng`, docs/engine.md "The random generator"), the state schema both engines follow
(:mod:`.schema`) and the bounds on what a spec may say (:mod:`.limits`)."""
