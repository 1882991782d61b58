"""PettingZoo AEC environments for every tabletop game.

``env("dropsite", players=3)`` gives the wrapped environment (illegal moves end the game
with reward -1 for the mover, as in ``pettingzoo.classic``); ``raw_env`` the bare one.
Agents are ``player_0`` ... (seat numbers from 0). Each observation is a dict with
``observation`` (float32, the seat's own view as a tensor, layout in docs/python.md) and
``action_mask`` (int8, 1 at each legal action index; all zero for a seat not to act).
Rewards arrive at the end: the outcome's reward per seat (1 for a sole winner, 1/k each
when k share first place, 0 otherwise). ``max_steps`` truncates a game after that many
actions, scored as a draw (1/n each, the rule of ``tabletop.openspiel`` and
``tabletop.vector`` too). ``reset(seed=...)`` seeds the deal; a reset without a seed draws
the next game's seed from the last seeded stream. ``state()`` is the global state
PettingZoo defines for centralized critics: every seat's observation, one after another.
The native game is ``env.unwrapped.native`` (a ``tabletop.State``).

``parallel_env(game, **options)`` is the same game as a PettingZoo parallel environment
over ``tabletop.Batch`` (one game stepped in Rust): every live agent is given an action
each step, and only the seat to act's is played (the others' masks are all 0).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from pettingzoo import ParallelEnv

from ._native import Batch, State
from ._env import check_env_args, observation_space, render_board


def env(game: str, render_mode: str | None = None, max_steps: int | None = None, **options):
    """The environment of ``game`` with the ``pettingzoo.classic`` wrappers."""
    e = raw_env(game, render_mode=render_mode, max_steps=max_steps, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e



def _spaces(agents, n, m):
    """Both envs' spaces: each agent's observation (m floats) and action mask (n), its
    actions, and the state (every agent's observation, concatenated)."""
    observation = {a: observation_space(n, m) for a in agents}
    actions = {a: spaces.Discrete(n) for a in agents}
    state = spaces.Box(low=-np.inf, high=np.inf, shape=(m * len(agents),), dtype=np.float32)
    return observation, actions, state

class raw_env(AECEnv):
    """One tabletop game as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, game: str, render_mode: str | None = None, max_steps: int | None = None, **options):
        super().__init__()
        check_env_args(self.metadata["render_modes"], render_mode, max_steps)
        self.game = game
        self.options = dict(options)
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.native = State(game, 0, self.options)
        self.metadata = dict(self.metadata, name=f"tabletop_{self.native.game}_v0")
        self.possible_agents = [f"player_{i}" for i in range(self.native.num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n = self.native.num_distinct_actions
        self.observation_spaces, self.action_spaces, self.state_space = _spaces(
            self.possible_agents, n, self.native.observation_len
        )
        self._seeds = np.random.default_rng()
        self._no_mask = np.zeros(n, dtype=np.int8)
        self.steps = 0

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def state(self):
        """Every seat's observation, seat 0's first (PettingZoo's global state)."""
        return np.concatenate([self.native.observation(s) for s in range(len(self.possible_agents))])

    def observe(self, agent):
        seat = self._seat[agent]
        mask = self.native.legal_mask() if self.native.current_player() == seat else self._no_mask.copy()
        return {"observation": self.native.observation(seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        game_seed = int(self._seeds.integers(0, 2**63))
        self.native = State(self.game, game_seed, self.options)
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.native.current_player()]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.native.apply(int(action))
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        to_act = self.native.current_player()
        if to_act is None:
            for a, r in zip(self.possible_agents, self.native.rewards()):
                self.rewards[a] = float(r)
                self.terminations[a] = True
        elif self.max_steps is not None and self.steps >= self.max_steps:
            # A game cut short is a draw: an equal share for every seat.
            for a in self.agents:
                self.rewards[a] = 1.0 / len(self.possible_agents)
                self.truncations[a] = True
        if to_act is not None:
            self.agent_selection = self.possible_agents[to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The text board as a spectator sees it (printed for ``human``)."""
        return render_board(self.render_mode, self.native.render)

    def close(self):
        pass


def parallel_env(game: str, render_mode: str | None = None, max_steps: int | None = None, **options):
    """The game as a PettingZoo parallel environment (see the module text)."""
    return TabletopParallelEnv(game, render_mode=render_mode, max_steps=max_steps, **options)


class TabletopParallelEnv(ParallelEnv):
    """One tabletop game as a PettingZoo parallel environment, stepped by ``tabletop.Batch``."""

    metadata = {"render_modes": ["human", "ansi"], "is_parallelizable": True}

    def __init__(self, game: str, render_mode: str | None = None, max_steps: int | None = None, **options):
        check_env_args(self.metadata["render_modes"], render_mode, max_steps)
        self.game = game
        self.options = dict(options)
        self.render_mode = render_mode
        self.batch = Batch(game, 1, 0, self.options, max_steps, 1, False)
        self.metadata = dict(self.metadata, name=f"tabletop_{self.batch.game}_parallel_v0")
        self.possible_agents = [f"player_{i}" for i in range(self.batch.num_players)]
        self.agents = []
        n = self.batch.num_distinct_actions
        self.observation_spaces, self.action_spaces, self.state_space = _spaces(
            self.possible_agents, n, self.batch.observation_len
        )
        self._seeds = np.random.default_rng()
        self._action = np.zeros(1, dtype=np.int64)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _observations(self):
        to_act = int(self.batch.to_act[0])
        obs = {}
        for seat, agent in enumerate(self.possible_agents):
            tensor = np.empty(self.batch.observation_len, dtype=np.float32)
            self.batch.observation_into(0, tensor, seat)
            mask = self.batch.mask[0].copy() if seat == to_act else np.zeros(self.batch.num_distinct_actions, np.int8)
            obs[agent] = {"observation": tensor, "action_mask": mask}
        return obs

    def state(self):
        """Every seat's observation, seat 0's first (PettingZoo's global state)."""
        out = np.empty(self.state_space.shape, dtype=np.float32)
        m = self.batch.observation_len
        for seat in range(len(self.possible_agents)):
            self.batch.observation_into(0, out[seat * m : (seat + 1) * m], seat)
        return out

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.batch.reset(int(self._seeds.integers(0, 2**63)))
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions):
        to_act = int(self.batch.to_act[0])
        agent = self.possible_agents[to_act]
        if agent not in actions:
            raise ValueError(f"{agent} is to act: give it an action")
        self._action[0] = int(actions[agent])
        _, _, rewards, terminated, truncated, _ = self.batch.step(self._action)
        obs = self._observations()
        ended, cut = bool(terminated[0]), bool(truncated[0])
        rewards = {a: float(rewards[0, s]) for s, a in enumerate(self.possible_agents)}
        terminations = {a: ended for a in self.agents}
        truncations = {a: cut for a in self.agents}
        infos = {a: {} for a in self.agents}
        if ended or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos

    def render(self):
        """The text board as a spectator sees it (printed for ``human``)."""
        return render_board(self.render_mode, lambda: self.batch.state(0).render())

    def close(self):
        pass
