"""The native State: indices, masks, observations from a seat's own view, errors."""

import copy
import random

import numpy as np
import pytest
from conftest import TABLES, table_id

import tabletop
from tabletop import State


def positions(state, rng, steps):
    """Plays up to `steps` random moves, yielding before each one (the state as it is)."""
    for _ in range(steps):
        if state.is_over():
            break
        yield state
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def play(state, rng, steps):
    for _ in positions(state, rng, steps):
        pass


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_mask_indices_and_notation_agree(table):
    game, options = table
    state = State(game, 3, options)
    for _ in positions(state, random.Random(0), 200):
        mask = state.legal_mask()
        legal = state.legal_actions()
        assert mask.dtype == np.int8 and mask.shape == (state.num_distinct_actions,)
        assert list(np.flatnonzero(mask)) == legal
        for index in legal:
            assert state.string_to_action(state.action_to_string(index)) == index


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_observation_ignores_what_the_seat_cannot_see(table):
    game, options = table
    state = State(game, 11, options)
    rng = random.Random(1)
    changed = 0
    for _ in range(30):
        play(state, rng, 7)
        for seat in range(state.num_players):
            mine = state.observation(seat)
            assert mine.dtype == np.float32 and mine.shape == (state.observation_len,)
            for k in range(3):
                assert np.array_equal(state.determinize(seat, k).observation(seat), mine)
                # Resampled for another seat, this seat's private information may change.
                other = (seat + 1) % state.num_players
                changed += not np.array_equal(state.determinize(other, k).observation(seat), mine)
    assert changed > 0, "a seat's own hidden information never showed in its observation"


def test_observation_into_fills_a_given_array():
    state = State("dropsite", 1)
    out = np.full(state.observation_len, np.nan, dtype=np.float32)
    state.observation_into(out, 0)
    assert np.array_equal(out, state.observation(0))
    with pytest.raises(ValueError, match="entries"):
        state.observation_into(np.zeros(3, dtype=np.float32), 0)


def test_bad_input_is_refused_and_changes_nothing():
    state = State("dropsite", 5, {"players": 3})
    before = state.clone()
    illegal = next(i for i, m in enumerate(state.legal_mask()) if m == 0)
    with pytest.raises(tabletop.IllegalAction) as refused:
        state.apply(illegal)
    assert refused.value.code.startswith("dropsite/")
    # The words still say the rule.
    assert "illegal action" in str(refused.value)
    with pytest.raises(ValueError, match="out of range"):
        state.apply(state.num_distinct_actions)
    with pytest.raises(IndexError, match="seat 3 is not at this table"):
        state.observation(3)
    with pytest.raises(tabletop.ParseError) as unread:
        state.string_to_action("seven on top")
    assert unread.value.code == "action/malformed"
    assert state == before
    for game, options, code in [
        ("chess", None, "game/unknown"),
        ("dropsite", {"players": 9}, "config/invalid_option"),
        ("dropsite", {"colour": "red"}, "config/malformed"),
    ]:
        with pytest.raises(tabletop.ConfigError) as bad:
            State(game, 0, options)
        assert bad.value.code == code


def test_two_illegal_drop_site_moves_raise_two_codes():
    state = State("dropsite", 11)
    moves = [state.action_to_string(i) for i in state.legal_actions()]
    # A card in hand that drop site 1 (dealt at the start) does not take: not lower; and
    # drop site 4, not there yet.
    held = [m.split()[0] for m in moves if m.endswith(" debt")]
    high = next(c for c in held if f"{c} on 1" not in moves)
    before = state.clone()
    for action, code in [(f"{high} on 1", "dropsite/not_lower"), (f"{high} on 4", "dropsite/no_such_site")]:
        with pytest.raises(tabletop.IllegalAction) as refused:
            state.apply(state.string_to_action(action))
        assert isinstance(refused.value, ValueError)
        assert refused.value.code == code
        assert state == before


def test_a_finished_game_has_rewards_and_a_board():
    state = State("dropsite", 2, {"target": 10})
    assert state.rewards() is None
    play(state, random.Random(2), 100_000)
    rewards = state.rewards()
    assert state.is_over() and state.current_player() is None
    assert sum(rewards) == pytest.approx(1.0) and max(rewards) > 0
    assert state.legal_actions() == [] and not state.legal_mask().any()
    assert "Game over" in state.render(0)
    copied = copy.deepcopy(state)
    assert copied == state and copied is not state


def test_games_and_options():
    assert tabletop.games() == ["dropsite", "distopia", "euphoria"]
    assert tabletop.default_options("dropsite")["players"] == 2


def test_about_gives_the_title_and_player_range():
    described = tabletop.about("euphoria")
    assert described["title"] == "Euphoria"
    assert described["players"] == {"min": 2, "max": 6}
    assert tabletop.about("distopia")["players"] == {"min": 2, "max": 2}
    assert any(o["key"] == "players" for o in tabletop.about("dropsite")["options"])
    with pytest.raises(ValueError):
        tabletop.about("chess")


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_legal_moves_describe_the_legal_actions(table):
    state = State(table[0], 5, table[1])
    rng = random.Random(5)
    for _ in range(60):
        if state.is_over():
            break
        moves = state.legal_moves()
        assert sorted(m["index"] for m in moves) == state.legal_actions()
        for m in moves:
            assert m["action"] == state.action_to_string(m["index"])
            assert m["label"].strip() and "`" not in m["label"]
        play(state, rng, 1)
