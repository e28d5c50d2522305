"""Playtesting a map: the agents (:mod:`.agents`), campaigns of their games
(:mod:`.balance`), the balance report (:mod:`.report`) and the map drawn as SVG
(:mod:`.render`)."""
