"""Steps per second from Python: ``python -m tabletop.bench [--seconds S]``.

For each game and table it measures, on one core,
- ``raw``: ``State.legal_actions()`` and ``State.apply()`` with a random legal index,
- ``aec``: the PettingZoo environment's own loop (``last()`` with the observation and the
  mask, a random legal action, ``step()``),
and, in the same run, ``pettingzoo.classic`` card games through the same AEC loop (they
need ``pip install 'pettingzoo[classic]'``) for comparison.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from . import State

TABLES = [
    ("dropsite", {"players": 2}),
    ("dropsite", {"players": 4}),
    ("distopia", {}),
    ("distopia", {"advanced": True}),
    ("euphoria", {"players": 2}),
    ("euphoria", {"players": 4}),
]


def raw_steps_per_second(game: str, options: dict, seconds: float) -> float:
    rng = random.Random(1)
    steps, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = State(game, seed, options)
        seed += 1
        while not state.is_over():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def aec_steps_per_second(env, seconds: float) -> float:
    rng = np.random.default_rng(1)
    steps, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            steps += 1
    return steps / (time.perf_counter() - start)


def _space_sizes(env) -> tuple[int, int]:
    agent = env.possible_agents[0]
    space = env.observation_space(agent)
    obs = space["observation"] if hasattr(space, "spaces") else space
    return int(np.prod(obs.shape)), int(env.action_space(agent).n)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    parser.add_argument("--games", nargs="*", default=None, help="only these games")
    args = parser.parse_args(argv)
    from .pettingzoo import env as make_env

    print(f"{'environment':<32} {'obs':>6} {'actions':>8} {'raw steps/s':>12} {'aec steps/s':>12}")
    for game, options in TABLES:
        if args.games and game not in args.games:
            continue
        try:
            env = make_env(game, **options)
        except ValueError as e:
            print(f"{game} {options}: skipped ({e})")
            continue
        obs, actions = _space_sizes(env)
        raw = raw_steps_per_second(game, options, args.seconds)
        aec = aec_steps_per_second(env, args.seconds)
        label = game + "".join(f" {k}={v}" for k, v in options.items())
        print(f"{label:<32} {obs:>6} {actions:>8} {raw:>12,.0f} {aec:>12,.0f}")
    try:
        from pettingzoo.classic import leduc_holdem_v4, texas_holdem_no_limit_v6, texas_holdem_v4
    except ImportError as e:
        print(f"pettingzoo.classic card games not measured: {e} (pip install 'pettingzoo[classic]')")
        return
    for name, module in [
        ("pettingzoo leduc_holdem_v4", leduc_holdem_v4),
        ("pettingzoo texas_holdem_v4", texas_holdem_v4),
        ("pettingzoo texas_holdem_no_limit_v6", texas_holdem_no_limit_v6),
    ]:
        env = module.env()
        env.reset(seed=0)
        obs, actions = _space_sizes(env)
        aec = aec_steps_per_second(env, args.seconds)
        print(f"{name:<32} {obs:>6} {actions:>8} {'-':>12} {aec:>12,.0f}")


if __name__ == "__main__":
    main()
