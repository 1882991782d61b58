"""Many games at once as a Gymnasium vector environment, over ``tabletop.Batch``.

``VectorEnv("dropsite", num_envs=256, players=3)`` steps 256 games in Rust per call
(self-play: in every game the seat to act plays the action given for that game). The
observation is a dict of ``observation`` (float32 ``[N, observation_len]``, the seat to
act's own view) and ``action_mask`` (int8 ``[N, num_distinct_actions]``). A game that
ends is replaced in the same step by its row's next game (Gymnasium's same-step
auto-reset), so the observation returned is always of a game waiting for a move.

``reward[i]`` is the reward of the seat that just moved in game ``i`` (0 until a game
ends); ``info["rewards"]`` holds every seat's (``[N, num_players]``), ``info["to_act"]``
the seat to act now and ``info["mover"]`` the seat that moved. A game cut short by
``max_steps`` is truncated and scored as a draw (an equal share each, as in
``tabletop.pettingzoo`` and ``tabletop.openspiel``).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv as _VectorEnv
from gymnasium.vector.utils import batch_space
from gymnasium.vector.vector_env import AutoresetMode

from ._native import Batch
from ._env import observation_space


class VectorEnv(_VectorEnv):
    """``num_envs`` games of one table, stepped together in Rust (see the module text)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        game: str,
        num_envs: int,
        seed: int = 0,
        max_steps: int | None = None,
        threads: int = 1,
        copy: bool = True,
        **options,
    ):
        self.batch = Batch(game, num_envs, seed, options, max_steps, threads)
        self.num_envs = num_envs
        self.copy = copy
        n, m = self.batch.num_distinct_actions, self.batch.observation_len
        self.single_observation_space = observation_space(n, m)
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, n))
        self._rows = np.arange(num_envs)

    def _out(self, array):
        return array.copy() if self.copy else array

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        obs, mask, to_act = self.batch.reset(seed)
        return (
            {"observation": self._out(obs), "action_mask": self._out(mask)},
            {"to_act": to_act.copy()},
        )

    def step(self, actions):
        mover = self.batch.to_act.copy()
        obs, mask, rewards, terminated, truncated, to_act = self.batch.step(np.asarray(actions, dtype=np.int64))
        reward = rewards[self._rows, mover].astype(np.float64)
        info = {"rewards": rewards.copy(), "to_act": to_act.copy(), "mover": mover}
        return (
            {"observation": self._out(obs), "action_mask": self._out(mask)},
            reward,
            terminated.copy(),
            truncated.copy(),
            info,
        )

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action for every game, drawn with ``self.np_random``."""
        mask = self.batch.mask
        # The k-th legal index of each row, k uniform below the row's count of legal ones.
        counts = mask.sum(axis=1)
        picks = (self.np_random.random(self.num_envs) * counts).astype(np.int64)
        cumulative = mask.cumsum(axis=1)
        return (cumulative <= picks[:, None]).sum(axis=1).astype(np.int64)
