"""Steps per second of ``tabletop.Batch``, side by side with ``tabletop bench``.

    python crates/python/bench/batched.py [--tabletop target/release/tabletop] [--seconds 3] [--rounds 1]

For each table it runs, in the same process run and on one thread each:
- ``tabletop bench GAME --seconds S --opt ...``: random playouts in Rust, no observation
  and no mask (its moves/s),
- ``Batch.step_random()`` (``N`` games, ``threads=1``): every step writes each game's
  observation and mask of the seat to act into numpy arrays, and plays a uniformly random
  legal action drawn in Rust from each game's own seeded stream,
- ``Batch.step(actions)`` with the actions drawn in numpy from the mask, once per batch
  (a uniform pick among each row's legal indices: ``VectorEnv.random_actions``).
Both sides get the same options; Euphoria is played with one offer a turn, as
``tabletop bench`` plays it. Build both in release (``cargo build --release -p cli`` and
``maturin develop --release``) before measuring.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import time

import numpy as np

from tabletop import Batch

TABLES = [
    ("dropsite", {"players": 2}),
    ("dropsite", {"players": 4}),
    ("distopia", {}),
    ("euphoria", {"players": 2, "offers_per_turn": 1}),
    ("euphoria", {"players": 4, "offers_per_turn": 1}),
]


def bench_moves_per_second(tabletop: str, game: str, options: dict, seconds: float) -> float:
    args = [tabletop, "bench", game, "--seconds", str(seconds)]
    for key, value in options.items():
        args += ["--opt", f"{key}={str(value).lower() if isinstance(value, bool) else value}"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    found = re.search(r"([0-9.]+) moves/s", out)
    if found is None:
        raise RuntimeError(f"`{' '.join(args)}` printed no moves/s:\n{out}")
    return float(found.group(1))


def random_choices(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal index per row of ``mask``."""
    counts = mask.sum(axis=1)
    picks = (rng.random(mask.shape[0]) * counts).astype(np.int64)
    return (mask.cumsum(axis=1) <= picks[:, None]).sum(axis=1).astype(np.int64)


def batch_steps_per_second(game: str, options: dict, n: int, seconds: float, numpy_actions: bool) -> float:
    batch = Batch(game, n, seed=1, options=options, threads=1)
    rng = np.random.default_rng(1)
    calls = 0
    start = time.perf_counter()
    while True:
        for _ in range(16):
            if numpy_actions:
                batch.step(random_choices(rng, batch.mask))
            else:
                batch.step_random()
        calls += 16
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls * n / elapsed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabletop", default="target/release/tabletop", help="the CLI binary")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--envs", type=int, default=256, help="games in the batch")
    parser.add_argument("--games", nargs="*", default=None, help="only these games")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measure each side this many times, alternating, and print the medians "
        "(on a shared machine the load changes from one second to the next)",
    )
    args = parser.parse_args(argv)
    header = f"{'table':<34} {'bench moves/s':>14} {'step_random/s':>14} {'ratio':>6} {'numpy step/s':>13} {'ratio':>6}"
    print(header)
    for game, options in TABLES:
        if args.games and game not in args.games:
            continue
        rounds = [
            (
                bench_moves_per_second(args.tabletop, game, options, args.seconds),
                batch_steps_per_second(game, options, args.envs, args.seconds, numpy_actions=False),
                batch_steps_per_second(game, options, args.envs, args.seconds, numpy_actions=True),
            )
            for _ in range(max(1, args.rounds))
        ]
        bench, native, numpy = (statistics.median(column) for column in zip(*rounds))
        label = game + "".join(f" {k}={v}" for k, v in options.items())
        print(f"{label:<34} {bench:>14,.0f} {native:>14,.0f} {native / bench:>6.2f} {numpy:>13,.0f} {numpy / bench:>6.2f}")


if __name__ == "__main__":
    main()
