"""OpenSpiel's own tools on the registered games: random simulation with serialization,
MCTS and IS-MCTS bots, playthroughs, information states."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, generate_playthrough, ismcts, mcts

import tabletop.openspiel  # noqa: F401  (registers the games)
from tabletop import State

# Short settings for the searches: Drop Site to 10 points; Euphoria (about 1,000 actions
# a random game at 2 seats) capped at 300 actions, where it ends as a draw.
GAMES = [
    ("tabletop_dropsite", {"target": 10}),
    ("tabletop_dropsite", {"players": 3, "target": 10}),
    ("tabletop_distopia", {}),
    ("tabletop_distopia", {"advanced": True}),
    ("tabletop_euphoria", {"players": 2, "max_steps": 300}),
]
# Random simulation plays these to their real end (Euphoria at 4 seats, about 11,000
# random actions a game, to a cap of 1,000).
UNCAPPED = [
    ("tabletop_dropsite", {"players": 4}),
    ("tabletop_euphoria", {"players": 2}),
    ("tabletop_euphoria", {"players": 4, "max_steps": 1000}),
]


def game_id(case):
    name, params = case
    return name + "".join(f"-{k}={v}" for k, v in params.items())


@pytest.mark.parametrize("case", GAMES + UNCAPPED, ids=game_id)
def test_random_simulation(case):
    name, params = case
    game = pyspiel.load_game(name, params)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


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
    actions = len(state.history()) - tabletop.openspiel.DEAL_DRAWS
    assert actions <= game.max_game_length()
    if "max_steps" in params and actions == params["max_steps"]:
        assert returns == [1.0 / game.num_players()] * game.num_players()
    else:
        assert state.native.is_over() and returns == state.native.rewards()


def dealt(game, seed):
    """A new state of `game` past its chance nodes, the seed bytes drawn from `seed`."""
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while state.is_chance_node():
        state.apply_action(int(rng.randint(256)))
    return state


def test_observation_tensor_is_the_seats_view():
    game = pyspiel.load_game("tabletop_dropsite")
    state = dealt(game, 1)
    tensor = np.array(state.observation_tensor(0), dtype=np.float32)
    assert np.array_equal(tensor, state.native.observation(0))
    assert game.observation_tensor_shape() == [state.native.observation_len]
    assert "to play" in state.observation_string(0)


def test_declared_bounds():
    game = pyspiel.load_game("tabletop_dropsite", {"players": 4, "max_rounds": 3})
    assert game.max_game_length() == 3 * (52 - 20)
    assert game.num_distinct_actions() == 13 * 8
    assert pyspiel.load_game("tabletop_distopia", {"max_steps": 50}).max_game_length() == 50


def test_the_deal_follows_the_chance_outcomes():
    game = pyspiel.load_game("tabletop_dropsite")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 256
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    assert not state.observation_tensor(0).count(1.0) and state.information_state_string(0) == ""
    a, b, c = dealt(game, 5), dealt(game, 5), dealt(game, 6)
    assert a.native == b.native and a.native != c.native
    # The seed is the eight bytes, little-endian: the native game of that seed.
    seed = int.from_bytes(bytes(a.history()[:8]), "little")
    assert a.native == State("dropsite", seed)


def play_randomly(state, steps, rng):
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.randint(256)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("case", GAMES, ids=game_id)
def test_a_deserialized_state_continues_identically(case):
    name, params = case
    game = pyspiel.load_game(name, params)
    state = play_randomly(game.new_initial_state(), 30, np.random.RandomState(3))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and state2.history() == state.history()
    assert state2.native == state.native
    for seat in range(game.num_players()):
        assert state2.information_state_string(seat) == state.information_state_string(seat)
        assert state2.information_state_tensor(seat) == state.information_state_tensor(seat)
    # The same choices from here give the same game, draws included.
    a = play_randomly(state, 200, np.random.RandomState(9))
    b = play_randomly(state2, 200, np.random.RandomState(9))
    assert a.history() == b.history() and a.native.to_json() == b.native.to_json()


@pytest.mark.parametrize("case", GAMES, ids=game_id)
def test_information_states_keep_secrets_and_survive_resampling(case):
    name, params = case
    game = pyspiel.load_game(name, params)
    state = play_randomly(game.new_initial_state(), 40, np.random.RandomState(4))
    if state.is_terminal():
        pytest.skip("the game ended early")
    n = game.num_players()
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    for seat in range(n):
        before = [state.information_state_string(s) for s in range(n)]
        tensor = state.information_state_tensor(seat)
        twin = state.resample_from_infostate(seat, sampler)
        # The seat cannot tell the resampled state from the real one...
        assert twin.information_state_string(seat) == before[seat]
        assert twin.information_state_tensor(seat) == tensor
        assert twin.observation_tensor(seat) == state.observation_tensor(seat)
        if seat == state.current_player():
            assert twin.legal_actions() == state.legal_actions()
        # ...nor did resampling change what anyone knows in the real one.
        assert [state.information_state_string(s) for s in range(n)] == before
        # What the seat cannot see was redrawn (the deck's order at least).
        assert twin.native != state.native
        # A seat's record grows by a line per action and starts with its own board.
        assert before[seat].startswith("at the start:\n")


def test_the_information_state_is_the_seats_own_record():
    game = pyspiel.load_game("tabletop_dropsite", {"target": 10})
    state = play_randomly(game.new_initial_state(), 8 + 6, np.random.RandomState(2))
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    assert mine != theirs
    # Each seat's own hand is in its record, and not in the other's.
    assert state.native.render(0) in mine and state.native.render(0) not in theirs
    # The board at the start, a line per action, the board now.
    lines = state.information_state_lines(0)
    assert lines[0] == "at the start:" and lines[-2] == "now:" and len(lines) == 4 + 6
    moved = [item.player for item in state.full_history()[8:]]
    assert sum(line.startswith("you") for line in lines[2:-2]) == moved.count(0)


@pytest.mark.parametrize("case", GAMES, ids=game_id)
def test_ismcts_bots_play_a_short_game(case):
    name, params = case
    params = {**params, "max_steps": 40}
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)
        for _ in range(game.num_players())
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.randint(256)))
            continue
        legal = state.legal_actions()
        action = bots[state.current_player()].step(state)
        assert action in legal
        state.apply_action(action)
    assert len(state.history()) - 8 <= 40
    assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("case", GAMES, ids=game_id)
def test_a_playthrough(case):
    name, params = case
    params = {**params, "max_steps": 12}
    text = generate_playthrough.playthrough(str(pyspiel.load_game(name, params)), None, seed=3)
    assert "InformationStateString(0)" in text and "InformationStateTensor(0)" in text
    assert "# State 20" in text  # eight seed bytes, then twelve actions
