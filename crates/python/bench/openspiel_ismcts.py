"""The outside reference: OpenSpiel's own IS-MCTS against our ``ismcts`` bot, each at the
same number of simulations a decision.

    python crates/python/bench/openspiel_ismcts.py [--games 40] [--simulations 100]
        [--uct-c 2.0] [--seed 1] [--tables distopia,dropsite] [--out results.jsonl]

With ``--out``, a stopped run started again with the same settings plays only the games
the file does not hold, and the summary counts them all.

For each table (Distop-IA; Drop Site at 2 seats to 30 points), ``--games`` games between

- ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` on the registered game
  (``tabletop.openspiel``): ``max_simulations`` simulations a decision, UCT with
  ``uct_c``, the most visited action, its worlds drawn with the game's
  ``resample_from_infostate``, each leaf valued by one random rollout to the end of the
  game (``mcts.RandomRolloutEvaluator``), and
- our bot ``Bot("ismcts:N")`` (``tabletop.openspiel.NativeBot``): SO-ISMCTS with ``N``
  iterations, each leaf valued by ``Game::evaluate`` after random moves to the end of
  the turn (docs/bots.md),

seats alternated (OpenSpiel's bot at seat ``g % 2`` in game ``g``). Game ``g``'s deal
(the eight opening chance bytes) and both bots' streams come from ``--seed`` and ``g``.
Prints, per table, our bot's score (a win 1, a shared win 1/k) with its 95% Wilson
interval, and the seconds each side spent deciding. Build the package first (``maturin
develop -m crates/python/Cargo.toml``, ``--release`` for speed; the results do not depend
on it) and install ``open_spiel``.
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from tabletop.openspiel import DEAL_DRAWS, NativeBot

TABLES = {
    "distopia": ("tabletop_distopia", {}),
    "dropsite": ("tabletop_dropsite", {"players": 2, "target": 30}),
}


def wilson(score: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate of ``score`` in ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play(game, g: int, seed: int, simulations: int, uct_c: float) -> dict:
    """Game ``g``: OpenSpiel's IS-MCTS at seat ``g % 2``, ours at the other."""
    rng = np.random.RandomState((seed * 1_000_003 + g) % 2**32)
    theirs_at = g % 2
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    theirs = ismcts.ISMCTSBot(
        game, evaluator, uct_c=uct_c, max_simulations=simulations, random_state=rng
    )
    ours = NativeBot(f"ismcts:{simulations}", seed=seed * 1_000_003 + g)
    state = game.new_initial_state()
    spent = [0.0, 0.0]  # theirs, ours
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.randint(256)))
            continue
        seat = state.current_player()
        start = time.perf_counter()
        if seat == theirs_at:
            action = theirs.step(state)
            spent[0] += time.perf_counter() - start
        else:
            action = ours.step(state)
            spent[1] += time.perf_counter() - start
        state.apply_action(action)
        moves += 1
    returns = state.returns()
    return {
        "game": g,
        "theirs_at": theirs_at,
        "ours": float(returns[1 - theirs_at]),
        "theirs": float(returns[theirs_at]),
        "moves": moves,
        "theirs_seconds": spent[0],
        "ours_seconds": spent[1],
        "deal_draws": DEAL_DRAWS,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", default="distopia,dropsite")
    parser.add_argument(
        "--out",
        help="append each finished game here as a JSON line; games of the same settings "
        "already there are not played again, and count in the summary",
    )
    args = parser.parse_args()
    settings = {"simulations": args.simulations, "uct_c": args.uct_c, "seed": args.seed}
    earlier = []
    if args.out:
        try:
            with open(args.out, encoding="utf-8") as f:
                earlier = [json.loads(line) for line in f if line.strip()]
        except FileNotFoundError:
            pass
    for table in args.tables.split(","):
        name, params = TABLES[table]
        game = pyspiel.load_game(name, params)
        results = [
            r
            for r in earlier
            if r.get("table") == table
            and all(r.get(k) == v for k, v in settings.items())
            and r["game"] < args.games
        ]
        done = {r["game"] for r in results}
        started = time.perf_counter()
        for g in range(args.games):
            if g in done:
                continue
            r = play(game, g, args.seed, args.simulations, args.uct_c)
            r.update(settings, table=table)
            results.append(r)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as f:
                    f.write(json.dumps(r) + "\n")
        n = len(results)
        score = sum(r["ours"] for r in results)
        low, high = wilson(score, n)
        decided = lambda key: sum(r[key] for r in results)  # noqa: E731
        print(
            f"{table} {params}: {n} games, {args.simulations} simulations a decision, "
            f"uct_c {args.uct_c}, seed {args.seed}\n"
            f"  ours (ismcts:{args.simulations}) scored {score:g} of {n}: "
            f"{100 * score / max(n, 1):.1f}% [{100 * low:.1f}%, {100 * high:.1f}%]; "
            f"OpenSpiel's ISMCTSBot {n - score:g}\n"
            f"  {sum(r['moves'] for r in results) / max(n, 1):.0f} moves a game; "
            f"deciding took OpenSpiel's bot {decided('theirs_seconds'):.1f} s, ours "
            f"{decided('ours_seconds'):.1f} s; {time.perf_counter() - started:.0f} s in this run",
            flush=True,
        )


if __name__ == "__main__":
    main()
