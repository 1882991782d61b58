"""One seat against the built-in bots, as a single-agent Gymnasium environment.

``BotEnv("distopia", opponents="medium", seat=0)``: you play ``seat``; every other seat
is a ``tabletop.Bot`` of that level (or a list, one level a seat in seat order, yours
left out). ``reset``/``step`` return your observation, a dict of ``observation`` (your
own view) and ``action_mask``, after the bots have played up to your next decision. The
reward is yours when the game ends (1 for a sole win, 1/k for a k-way shared win, 0
otherwise); a game cut short by ``max_steps`` (your own actions) is truncated and scored
as a draw (1/n), as in every other wrapper.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from ._native import Bot, State
from ._env import check_env_args, observation_space, render_board


class BotEnv(gymnasium.Env):
    """You at one seat, built-in bots at the others (see the module text)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self,
        game: str,
        opponents: str | list[str] = "medium",
        seat: int = 0,
        max_steps: int | None = None,
        render_mode: str | None = None,
        **options,
    ):
        check_env_args(self.metadata["render_modes"], render_mode, max_steps)
        self.game = game
        self.options = dict(options)
        self.native = State(game, 0, self.options)
        n = self.native.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not at this table: seats are 0 to {n - 1}")
        others = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(others) != n - 1:
            raise ValueError(f"{len(others)} opponents for {n - 1} other seats: give one level a seat")
        self.levels = others
        self.seat = seat
        self.max_steps = max_steps
        self.render_mode = render_mode
        a, m = self.native.num_distinct_actions, self.native.observation_len
        self.observation_space = observation_space(a, m)
        self.action_space = spaces.Discrete(a)
        self.bots: dict[int, Bot] = {}
        self.steps = 0

    def _bots_play(self):
        while not self.native.is_over() and self.native.current_player() != self.seat:
            seat = self.native.current_player()
            self.native.apply(self.bots[seat].choose(self.native))

    def _observation(self):
        mask = self.native.legal_mask() if not self.native.is_over() else np.zeros(self.action_space.n, np.int8)
        return {"observation": self.native.observation(self.seat), "action_mask": mask}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63))
        self.native = State(self.game, game_seed, self.options)
        others = [s for s in range(self.native.num_players) if s != self.seat]
        self.bots = {s: Bot(level, int(self.np_random.integers(0, 2**63))) for s, level in zip(others, self.levels)}
        self.steps = 0
        self._bots_play()
        return self._observation(), {}

    def step(self, action):
        self.native.apply(int(action))
        self.steps += 1
        self._bots_play()
        reward, terminated, truncated = 0.0, self.native.is_over(), False
        if terminated:
            reward = float(self.native.rewards()[self.seat])
        elif self.max_steps is not None and self.steps >= self.max_steps:
            truncated, reward = True, 1.0 / self.native.num_players
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, {}

    def render(self):
        """The text board as your seat sees it (printed for ``human``)."""
        return render_board(self.render_mode, lambda: self.native.render(self.seat))
