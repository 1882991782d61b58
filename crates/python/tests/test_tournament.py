"""Tournaments from Python: the numbers of `tabletop tournament` for the same games, and a
Python policy rated against the built-in bots."""

import json
import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

from tabletop import Bot
from tabletop._native import builtin_tournament
from tabletop.tournament import Entrant, tournament


def without_time(report):
    return {k: v for k, v in report.items() if k != "seconds"}


@pytest.mark.parametrize(
    "game, options",
    [("distopia", {}), ("dropsite", {"players": 3, "target": 10})],
    ids=["distopia", "dropsite-3"],
)
def test_built_in_bots_get_the_numbers_of_the_command_line_code(game, options):
    bots = ["random", "heuristic", "easy"]
    from_python = tournament(game, bots, games=4, seed=3, options=options)
    in_rust = builtin_tournament(game, bots, games=4, seed=3, options=options)
    assert without_time(from_python) == without_time(in_rust)
    assert from_python["bots"] == bots and len(from_python["pairs"]) == 3
    assert sum(from_python["elo"].values()) / 3 == pytest.approx(1500)


def test_entrants_made_per_seat_play_as_the_built_in_bots():
    made = Entrant("heuristic", lambda seed: Bot("heuristic", seed))
    a = tournament("distopia", [made, "random"], games=6, seed=8)
    b = builtin_tournament("distopia", ["heuristic", "random"], games=6, seed=8)
    assert without_time(a) == without_time(b)


def test_a_python_policy_against_the_built_in_bots():
    rng = np.random.default_rng(0)

    def uniform(state):
        legal = state.legal_actions()
        return legal[rng.integers(len(legal))]

    report = tournament("distopia", [uniform, "heuristic", "random"], games=6, seed=2)
    assert report["bots"] == ["uniform", "heuristic", "random"]
    pair = report["pairs"][0]
    assert (pair["a"], pair["b"], pair["games"]) == ("uniform", "heuristic", 6)
    assert pair["a_wins"] + pair["b_wins"] <= 6
    assert pair["win_rate"] == pytest.approx(pair["a_score"] / 6)
    assert report["elo"]["heuristic"] > report["elo"]["uniform"]

    def cheat(state):
        return 10_000

    with pytest.raises(ValueError, match="cheat .*cannot be played"):
        tournament("distopia", [cheat, "random"], games=1)
    with pytest.raises(ValueError, match="at least two"):
        tournament("distopia", ["random"], games=1)


def cli():
    """The command-line binary, when it was built (`TABLETOP_BIN`, or the workspace's
    debug or release build)."""
    if os.environ.get("TABLETOP_BIN"):
        return os.environ["TABLETOP_BIN"]
    root = pathlib.Path(__file__).resolve().parents[3]
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", root / "target"))
    for build in ("debug", "release"):
        if (target / build / "tabletop").exists():
            return str(target / build / "tabletop")
    return shutil.which("tabletop")


@pytest.mark.skipif(cli() is None, reason="the tabletop binary is not built")
def test_the_same_numbers_as_the_command_line():
    printed = subprocess.run(
        [cli(), "tournament", "distopia", "--bots", "random,heuristic", "--games", "4", "--seed", "5", "--json"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    report = json.loads(printed)
    ours = tournament("distopia", ["random", "heuristic"], games=4, seed=5)
    assert ours["pairs"] == report["pairs"] and ours["elo"] == report["elo"]
