"""The batched environment: rows that match the native states, auto-reset, refusals, and
the Gymnasium vector and PettingZoo parallel environments over it."""

import numpy as np
import pytest
from conftest import TABLES, table_id
from pettingzoo.test import parallel_api_test

from tabletop import Batch
from tabletop.pettingzoo import parallel_env
from tabletop.vector import VectorEnv


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_rows_are_the_games_they_show(table):
    game, options = table
    batch = Batch(game, 3, seed=5, options=options, max_steps=60)
    p = batch.num_players
    ended = 0
    for _ in range(150):
        before = [batch.state(i) for i in range(3)]
        obs, mask, rewards, terminated, truncated, to_act = batch.step_random()
        for i in range(3):
            if terminated[i] or truncated[i]:
                ended += 1
                if terminated[i]:
                    # The game that ended is the one before with the action played.
                    last = before[i].clone()
                    last.apply(int(batch.actions[i]))
                    assert last.is_over() and list(rewards[i]) == pytest.approx(last.rewards())
                else:
                    assert list(rewards[i]) == pytest.approx([1.0 / p] * p)
                assert batch.steps(i) == 0
            else:
                assert not rewards[i].any()
                after = before[i].clone()
                after.apply(int(batch.actions[i]))
                assert after == batch.state(i)
            state = batch.state(i)
            assert to_act[i] == state.current_player()
            assert np.array_equal(obs[i], state.observation(int(to_act[i])))
            assert np.array_equal(mask[i], state.legal_mask())
    assert ended > 0


def test_given_actions_threads_and_seeds():
    one = Batch("distopia", 6, seed=3, threads=1)
    two = Batch("distopia", 6, seed=3, threads=2)
    rng = np.random.default_rng(0)
    for _ in range(120):
        choice = np.array([rng.choice(np.flatnonzero(row)) for row in one.mask], dtype=np.int64)
        a = [x.copy() for x in one.step(choice)]
        b = two.step(choice)
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
    again = Batch("distopia", 6, seed=3)
    assert all(again.state(i) == Batch("distopia", 6, seed=3).state(i) for i in range(6))
    assert again.state(0) != again.state(1)


def test_a_refused_action_steps_no_game():
    batch = Batch("dropsite", 4, seed=1)
    states = [batch.state(i) for i in range(4)]
    actions = np.array([np.flatnonzero(row)[0] for row in batch.mask], dtype=np.int64)
    actions[2] = np.flatnonzero(batch.mask[2] == 0)[0]
    with pytest.raises(ValueError, match="game 2: action index"):
        batch.step(actions)
    with pytest.raises(ValueError, match="3 actions for 4 games"):
        batch.step(actions[:3])
    assert all(batch.state(i) == states[i] for i in range(4))
    with pytest.raises(ValueError, match="at least one game"):
        Batch("dropsite", 0)
    with pytest.raises(ValueError, match="players must be 2 to 4"):
        Batch("dropsite", 2, options={"players": 9})
    with pytest.raises(IndexError, match="game 4 is not in this batch"):
        batch.state(4)


def test_without_autoreset_a_finished_game_waits():
    batch = Batch("dropsite", 2, seed=2, max_steps=5, autoreset=False)
    for _ in range(5):
        batch.step_random()
    assert batch.truncated.all() and (batch.to_act == -1).all() and not batch.mask.any()
    with pytest.raises(ValueError, match="game 0 is over"):
        batch.step(np.zeros(2, dtype=np.int64))
    batch.reset()
    assert (batch.to_act >= 0).all()


def test_vector_env_steps_in_self_play():
    env = VectorEnv("dropsite", num_envs=4, seed=1, max_steps=30, players=3)
    obs, info = env.reset(seed=2)
    assert env.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    assert obs["observation"].shape == (4, env.batch.observation_len)
    total = np.zeros(4)
    for _ in range(40):
        actions = env.random_actions()
        assert all(obs["action_mask"][i, a] == 1 for i, a in enumerate(actions))
        obs, reward, terminated, truncated, info = env.step(actions)
        assert reward.shape == (4,) and info["rewards"].shape == (4, 3)
        total += reward
    assert truncated.dtype == bool and total.sum() > 0


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_pettingzoo_parallel_api(table):
    game, options = table
    parallel_api_test(parallel_env(game, max_steps=200, **options), num_cycles=200)
