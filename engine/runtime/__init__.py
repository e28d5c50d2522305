"""The runtime: the game API over both engines (:mod:`.game`), the reference interpreter
(:mod:`.reference`), the state format and its validator (:mod:`.state_format`), described
positions (:mod:`.position`), winners (:mod:`.scoring`) and determinization
(:mod:`.determinize`)."""
