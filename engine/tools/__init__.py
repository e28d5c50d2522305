"""The tools around the runtime: the command line (:mod:`.cli`), traces (:mod:`.trace`),
perft counts (:mod:`.perft`) and the differential conformance suite (:mod:`.conformance`)."""
