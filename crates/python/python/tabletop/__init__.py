"""Drop Site, Distop-IA and Euphoria for AI research.

``State(game, seed=0, options=None)`` is a game in progress with fixed action indices,
a legal-action mask and per-seat observation tensors (built from that seat's view only).
``tabletop.pettingzoo.env(game, **options)`` is a PettingZoo AEC environment and
``tabletop.openspiel`` registers each game with OpenSpiel. See docs/python.md.
"""

from ._native import State, about, default_options, derive_seed, games

__all__ = ["State", "about", "default_options", "derive_seed", "games"]
