"""Reinforcement learning: observation tensors and action masks (:mod:`.tensor`) and the
adapters to OpenSpiel (:mod:`.openspiel`), PettingZoo (:mod:`.pettingzoo`) and Gymnasium
(:mod:`.gymnasium`), each an optional extra."""
