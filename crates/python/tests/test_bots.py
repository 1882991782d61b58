"""The built-in bots from Python: against a random policy, as PettingZoo and OpenSpiel
opponents, and the single-agent environment against them."""

import numpy as np
import pytest

from tabletop import Bot, State
from tabletop.gym import BotEnv
from tabletop.pettingzoo import env as aec_env

# Small, short tables: a game ends in a few hundred actions at most.
SHORT = [
    ("dropsite", {"players": 2, "target": 15}),
    ("distopia", {}),
    ("euphoria", {"players": 2, "offers_per_turn": 1}),
]


def play(game, options, seed, bot_seat, level="medium"):
    """One game: `level` at `bot_seat`, uniformly random legal actions elsewhere."""
    state = State(game, seed, options)
    bot = Bot(level, seed)
    rng = np.random.default_rng(seed)
    while not state.is_over():
        if state.current_player() == bot_seat:
            state.apply(bot.choose(state))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
    return state.rewards()[bot_seat]


@pytest.mark.parametrize("table", SHORT, ids=lambda t: t[0])
def test_medium_beats_random_most_games(table):
    game, options = table
    games = 4
    wins = sum(play(game, options, seed, bot_seat=seed % 2) for seed in range(games))
    assert wins >= 3, f"medium won {wins} of {games} games against random"


def test_a_bot_chooses_a_legal_action_for_any_seat_and_refuses_bad_levels():
    state = State("dropsite", 3, {"players": 3})
    bot = Bot("easy", seed=1)
    for _ in range(9):
        choice = bot.choose(state)
        assert choice in state.legal_actions()
        state.apply(choice)
    assert Bot("easy", seed=4).choose(State("dropsite", 3)) == Bot("easy", seed=4).choose(State("dropsite", 3))
    with pytest.raises(ValueError, match="unknown"):
        Bot("grandmaster")
    with pytest.raises(ValueError, match="not a bot"):
        Bot("human")


def test_pimc_is_a_bot_by_name():
    assert Bot("pimc", seed=2).name == "pimc"
    wins = sum(play("distopia", {}, seed, bot_seat=seed % 2, level="pimc") for seed in range(2))
    assert wins >= 1, f"pimc won {wins} of 2 games against random"
    # The names come from one list, which the refusal prints.
    with pytest.raises(ValueError, match="pimc"):
        Bot("human")


def test_bots_as_pettingzoo_opponents():
    e = aec_env("distopia")
    e.reset(seed=3)
    bot = Bot("heuristic", seed=1)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, _, termination, truncation, _ = e.last()
        if termination or truncation:
            action = None
        elif agent == "player_1":
            action = bot.choose(e.unwrapped.native)
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
    assert e.unwrapped.native.is_over()


def test_bots_as_openspiel_opponents():
    import pyspiel
    from open_spiel.python.algorithms import evaluate_bots

    from tabletop.openspiel import NativeBot

    game = pyspiel.load_game("tabletop_dropsite", {"target": 10})
    rng = np.random.RandomState(1)
    bots = [NativeBot("heuristic", seed=2), pyspiel.make_uniform_random_bot(1, 5)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sum(returns) == pytest.approx(1.0)


def test_the_single_agent_env_against_bots():
    env = BotEnv("dropsite", opponents=["random", "easy"], seat=1, players=3, target=10)
    obs, _ = env.reset(seed=5)
    first = env.native.clone()
    assert env.observation_space.contains(obs) and env.native.current_player() == 1
    done, steps = False, 0
    while not done:
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, reward, terminated, truncated, _ = env.step(action)
        assert env.observation_space.contains(obs)
        done, steps = terminated or truncated, steps + 1
    assert terminated and not truncated and reward == env.native.rewards()[1]
    assert env.reset(seed=5)[0]["observation"].tobytes() == first.observation(1).tobytes()
    illegal = int(np.flatnonzero(env.native.legal_mask() == 0)[0])
    with pytest.raises(ValueError, match="illegal"):
        env.step(illegal)
    cut = BotEnv("distopia", opponents="random", max_steps=3)
    cut.reset(seed=1)
    for _ in range(3):
        obs, reward, terminated, truncated, _ = cut.step(int(np.flatnonzero(cut.native.legal_mask())[0]))
    assert truncated and reward == 0.5
    with pytest.raises(ValueError, match="seat 5 is not at this table"):
        BotEnv("distopia", seat=5)
