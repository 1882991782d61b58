"""States and environments that travel: pickle and copy through the JSON state file, into
a fresh process that continues the game identically."""

import copy
import inspect
import pickle
import subprocess
import sys

import numpy as np
import pytest

from tabletop import State, load_state
from tabletop.pettingzoo import raw_env


def play_on(state, env):
    for _ in range(30):
        if state.is_over():
            break
        state.apply(state.legal_actions()[0])
    for _ in range(30):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[-1]))
    return state.to_json() + "\n" + env.native.to_json()


# Run in a fresh interpreter: unpickles a state and an env and plays both on with
# `play_on` itself, so that the child makes the same choices as the parent does.
CHILD = f"""
import pickle, sys
import numpy as np
{inspect.getsource(play_on)}
state, env = pickle.loads(sys.stdin.buffer.read())
sys.stdout.write(play_on(state, env))
"""


@pytest.mark.parametrize("game", ["dropsite", "distopia", "euphoria"])
def test_a_pickled_state_and_env_continue_in_a_fresh_process(game):
    state = State(game, 11)
    env = raw_env(game)
    env.reset(seed=4)
    for _ in range(25):
        state.apply(state.legal_actions()[-1])
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    blob = pickle.dumps((state, env))
    child = subprocess.run(
        [sys.executable, "-c", CHILD], input=blob, capture_output=True, check=True, cwd="/"
    )
    assert child.stdout.decode() == play_on(state, env)


def test_copies_and_the_state_file():
    state = State("dropsite", 3, {"players": 3})
    for _ in range(10):
        state.apply(state.legal_actions()[0])
    for twin in (copy.copy(state), copy.deepcopy(state), load_state(state.to_json())):
        assert twin == state
        twin.apply(twin.legal_actions()[0])
        assert twin != state
    env = raw_env("distopia")
    env.reset(seed=1)
    twin = copy.deepcopy(env)
    assert twin.native == env.native and twin.agent_selection == env.agent_selection
    with pytest.raises(ValueError, match="not a state file"):
        load_state("{}")
    with pytest.raises(ValueError, match="chess"):
        load_state('{"game": "chess", "state": {}}')
