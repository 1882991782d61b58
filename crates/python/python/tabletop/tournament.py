"""Tournaments between Python policies and the built-in bots, scored by the code of
``tabletop tournament``.

``tournament(game, entrants, games=100, seed=1, options=None)`` plays every pair of
entrants ``games`` games with the seats, deals and bot seeds ``tabletop tournament`` uses
(game ``i`` of the tournament, pairs in order then games, is seeded with
``derive_seed(seed, i)``; seat ``s``'s bot with ``derive_seed(game_seed, s + 1)``; the
pair's seats rotate as ``tournament_seating`` gives them). The games are played here, in
Python, and the report (win rates, 95% intervals, Elo) is worked out in Rust by the same
function the command line uses, so built-in bots get the very numbers
``tabletop tournament --json`` prints for them.

An entrant is one of:

* a built-in bot's level (``"random"``, ``"heuristic"``, ``"pimc"``, ``"easy"``,
  ``"medium"``, ``"hard"``, ``"ismcts"``, ``"ismcts:N"``), made afresh for each seat of each game;
* ``Entrant(name, make)``: ``make(seed)`` returns a policy, made afresh for each seat of
  each game with that seat's seed (as the built-in bots are);
* a policy itself, used for every seat and game: any callable ``policy(state)`` or an
  object with ``choose(state)``, returning the action index to play.

A policy is handed a ``State`` that its seat cannot tell from the real one (what the seat
cannot see is redrawn, ``State.determinize``), so it cannot peek at other hands or the
deck. An index that is not legal stops the tournament with a ValueError naming the
entrant, the game and its seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from ._native import Bot, State, derive_seed, tournament_report, tournament_seating

__all__ = ["Entrant", "tournament"]


@dataclass
class Entrant:
    """An entrant made afresh for each seat of each game: ``make(seed)`` returns a policy
    (a callable ``policy(state)`` or an object with ``choose(state)``)."""

    name: str
    make: Callable[[int], Any]


def _name(entrant) -> str:
    if isinstance(entrant, str):
        return Bot(entrant).name
    if isinstance(entrant, Entrant):
        return entrant.name
    return getattr(entrant, "name", None) or getattr(entrant, "__name__", None) or type(entrant).__name__


def _unique(names: list[str]) -> list[str]:
    """`#2`, `#3`... on repeated names, as the command line names repeated bots."""
    out: list[str] = []
    for base in names:
        name, n = base, 1
        while name in out:
            n += 1
            name = f"{base}#{n}"
        out.append(name)
    return out


def _player(entrant, seed: int):
    """What chooses for one seat of one game, and whether it gets the real state (the
    built-in bots, which read only the seat's view) or a redrawn one."""
    if isinstance(entrant, str):
        return Bot(entrant, seed).choose, False
    policy = entrant.make(seed) if isinstance(entrant, Entrant) else entrant
    choose = getattr(policy, "choose", policy)
    if isinstance(policy, Bot):
        return choose, False
    if not callable(choose):
        raise TypeError(f"an entrant is a bot level, an Entrant or a callable policy, not {policy!r}")
    return choose, True


def tournament(game: str, entrants: list, games: int = 100, seed: int = 1, options: dict | None = None) -> dict:
    """Plays the tournament and returns its report as ``tabletop tournament --json``
    prints it: ``game``, ``seats``, ``games_per_pair``, ``seed``, ``bots`` (the names),
    ``pairs`` (each with ``a``, ``b``, ``games``, ``a_wins``, ``b_wins``, ``a_score``,
    ``win_rate``, ``low``, ``high``), ``elo`` (name to rating, mean 1500),
    ``mean_actions`` and ``seconds``. Options are taken as given (the command line adds
    Euphoria's ``offers_per_turn=1`` when none is given)."""
    if len(entrants) < 2:
        raise ValueError("a tournament needs at least two bots")
    options = dict(options or {})
    names = _unique([_name(e) for e in entrants])
    seats = State(game, 0, options).num_players
    start = time.perf_counter()
    results = []
    index = 0
    for i in range(len(entrants)):
        for j in range(i + 1, len(entrants)):
            for k in range(games):
                a_seats = tournament_seating(seats, k)
                game_seed = derive_seed(seed, index)
                players = [
                    _player(entrants[i] if a_seats[s] else entrants[j], derive_seed(game_seed, s + 1))
                    for s in range(seats)
                ]
                state = State(game, game_seed, options)
                moves = 0
                while not state.is_over():
                    seat = state.current_player()
                    choose, redrawn = players[seat]
                    seen = state.determinize(seat, derive_seed(game_seed, 1_000_003 + moves)) if redrawn else state
                    action = choose(seen)
                    try:
                        state.apply(int(action))
                    except (TypeError, ValueError) as e:
                        who = names[i] if a_seats[seat] else names[j]
                        raise ValueError(
                            f"{who} (seat {seat + 1}) chose {action!r}, which cannot be played, in game {index} "
                            f"(seed {game_seed}): {e}"
                        ) from e
                    moves += 1
                results.append((state.scores(), state.places(), moves))
                index += 1
    seconds = time.perf_counter() - start
    return tournament_report(game, seats, names, games, seed, results, seconds)
