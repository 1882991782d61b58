"""OpenSpiel's own tools on the registered games: random simulation and MCTS bots."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, mcts

import tabletop.openspiel  # noqa: F401  (registers the games)

# Short settings for the searches: Drop Site to 10 points; Euphoria (about 1,000 actions
# a random game at 2 seats) capped at 300 actions, where it ends as a draw.
GAMES = [
    ("tabletop_dropsite", {"target": 10}),
    ("tabletop_dropsite", {"players": 3, "target": 10}),
    ("tabletop_distopia", {}),
    ("tabletop_distopia", {"advanced": True}),
    ("tabletop_euphoria", {"players": 2, "max_steps": 300}),
]
# Random simulation plays every game to its real end.
UNCAPPED = [
    ("tabletop_dropsite", {"players": 4}),
    ("tabletop_euphoria", {"players": 2}),
    ("tabletop_euphoria", {"players": 4}),
]


def game_id(case):
    name, params = case
    return name + "".join(f"-{k}={v}" for k, v in params.items())


@pytest.mark.parametrize("case", GAMES + UNCAPPED, ids=game_id)
def test_random_simulation(case):
    name, params = case
    game = pyspiel.load_game(name, params)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("case", GAMES, ids=game_id)
def test_mcts_bots_play_a_game_to_the_end(case):
    name, params = case
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rng)
        for _ in range(game.num_players())
    ]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, rng)
    assert state.is_terminal()
    assert sum(returns) == pytest.approx(1.0)
    assert len(state.history()) <= game.max_game_length()
    if "max_steps" in params and len(state.history()) == params["max_steps"]:
        assert returns == [1.0 / game.num_players()] * game.num_players()
    else:
        assert state.native.is_over() and returns == state.native.rewards()


def test_observation_tensor_is_the_seats_view():
    game = pyspiel.load_game("tabletop_dropsite")
    state = game.new_initial_state()
    tensor = np.array(state.observation_tensor(0), dtype=np.float32)
    assert np.array_equal(tensor, state.native.observation(0))
    assert game.observation_tensor_shape() == [state.native.observation_len]
    assert "to play" in state.observation_string(0)


def test_declared_bounds():
    game = pyspiel.load_game("tabletop_dropsite", {"players": 4, "max_rounds": 3})
    assert game.max_game_length() == 3 * (52 - 20)
    assert game.num_distinct_actions() == 13 * 8
    assert pyspiel.load_game("tabletop_distopia", {"max_steps": 50}).max_game_length() == 50


def test_deals_follow_the_seed_parameter():
    def first_two(seed):
        game = pyspiel.load_game("tabletop_dropsite", {"seed": seed})
        return [game.new_initial_state().native for _ in range(2)]

    a, b = first_two(5), first_two(5)
    assert a[0] == b[0] and a[1] == b[1]
    assert a[0] != a[1]
    assert first_two(6)[0] != a[0]
