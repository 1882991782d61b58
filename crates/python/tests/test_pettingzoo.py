"""PettingZoo's own API and seed tests on every table."""

import pytest
from conftest import TABLES, table_id
from pettingzoo.test import api_test, seed_test

from tabletop.pettingzoo import env, raw_env


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_pettingzoo_api(table):
    game, options = table
    api_test(env(game, **options), num_cycles=300)


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_pettingzoo_seeding(table):
    game, options = table
    seed_test(lambda: env(game, **options), num_cycles=100)


def test_a_game_runs_to_its_rewards_and_renders():
    e = env("dropsite", render_mode="ansi", target=10)
    e.reset(seed=4)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        e.step(int(obs["action_mask"].nonzero()[0][0]))
    assert sorted(totals.values()) == [0.0, 1.0]
    assert "Game over" in e.render()


def test_max_steps_truncates():
    e = raw_env("dropsite", max_steps=5)
    e.reset(seed=1)
    for _ in range(5):
        obs = e.observe(e.agent_selection)
        e.step(int(obs["action_mask"].nonzero()[0][0]))
    assert all(e.truncations.values())


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="players must be 2 to 4"):
        env("dropsite", players=7)
    with pytest.raises(ValueError, match="max_steps"):
        env("dropsite", max_steps=0)
