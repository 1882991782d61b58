"""Drop Site, Distop-IA and Euphoria for AI research.

``State(game, seed=0, options=None)`` is a game in progress with fixed action indices,
a legal-action mask and per-seat observation tensors (built from that seat's view only).
``Batch(game, num_envs)`` steps many games in Rust per call (``tabletop.vector.VectorEnv``
is a Gymnasium vector environment over it); ``Bot(level, seed)`` is a built-in bot
choosing for the seat to act of a ``State``; ``tabletop.gym.BotEnv`` is one seat against
bots as a Gymnasium environment. ``tabletop.pettingzoo.env(game, **options)`` is a
PettingZoo AEC environment (``parallel_env`` a parallel one) and ``tabletop.openspiel``
registers each game with OpenSpiel. States pickle through their JSON state file
(``State.to_json``, ``load_state``). What the engine refuses raises a ``TabletopError``
(a ``ValueError``) with a stable ``.code``: ``IllegalAction`` for a refused move
(``.code`` names the rule, ``"dropsite/not_lower"``), ``ParseError``, ``ConfigError`` and
``StateError``. See docs/python.md.
"""

from ._native import (
    Batch,
    Bot,
    ConfigError,
    IllegalAction,
    ParseError,
    State,
    StateError,
    TabletopError,
    about,
    default_options,
    derive_seed,
    games,
    load_state,
)

__all__ = [
    "Batch",
    "Bot",
    "ConfigError",
    "IllegalAction",
    "ParseError",
    "State",
    "StateError",
    "TabletopError",
    "about",
    "default_options",
    "derive_seed",
    "games",
    "load_state",
]
