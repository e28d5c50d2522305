"""The fuzz campaign of railspec (``make fuzz``): Hypothesis-driven cases over the four
input formats (specs, positions, traces, states), run in worker processes so that a crash
of the compiled engine is counted rather than fatal. See fuzz/README.md."""
