"""Every tabletop game as an OpenSpiel Python game.

Importing this module registers ``tabletop_dropsite``, ``tabletop_distopia`` and
``tabletop_euphoria`` with ``pyspiel``, so ``pyspiel.load_game("tabletop_dropsite",
{"players": 3, "target": 10})`` and OpenSpiel's own tools (random simulation, its MCTS
bot, ``evaluate_bots``) work on them unchanged.

The games are sequential, imperfect-information and *sampled stochastic*: the deal and
every later draw come from the random stream kept inside the state (seeded by the
``seed`` parameter), not from explicit chance nodes. A cloned state therefore carries the
same future draws, which a search that clones (OpenSpiel's plain MCTS) can exploit.
Utilities are the outcome's rewards (1 for a sole winner, 1/k each when k share first
place, 0 otherwise), so every game is constant-sum with sum 1. ``max_steps`` caps a game:
a game still running after that many actions ends as a draw (1/n each), and is the
declared maximum game length (by default the rules' own bound where there is one).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from ._native import Bot, State, about, default_options, derive_seed, games

# A cap for games whose rules give no bound on their length: far above any game seen in
# random play (docs/python.md).
DEFAULT_MAX_STEPS = {"distopia": 2_000, "euphoria": 20_000}
_NONE = ""


def _parameters(game: str) -> dict:
    """The pyspiel parameter defaults: the game's options (unset ones as "") and the cap."""
    params = {}
    for key, value in default_options(game).items():
        if value is None:
            params[key] = _NONE
        elif isinstance(value, (bool, int, float, str)):
            params[key] = value
    params["seed"] = 0
    params["max_steps"] = 0
    return params


def _options(game: str, params: dict) -> dict:
    """The game's options from pyspiel parameters."""
    defaults = default_options(game)
    return {k: v for k, v in params.items() if k in defaults and v != _NONE}


class TabletopState(pyspiel.State):
    """A tabletop game in progress, as an OpenSpiel state."""

    def __init__(self, game: "TabletopGame", native: State):
        super().__init__(game)
        self.native = native
        self.cap = game.cap
        self.steps = 0

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.native.current_player()

    def _legal_actions(self, player):
        if self.is_terminal() or player != self.native.current_player():
            return []
        return self.native.legal_actions()

    def _apply_action(self, action):
        self.native.apply(int(action))
        self.steps += 1

    def _action_to_string(self, player, action):
        return self.native.action_to_string(int(action))

    def is_terminal(self):
        return self.native.is_over() or self.steps >= self.cap

    def returns(self):
        n = self.native.num_players
        rewards = self.native.rewards()
        if rewards is not None:
            return list(rewards)
        if self.steps >= self.cap:
            return [1.0 / n] * n
        return [0.0] * n

    def __str__(self):
        return self.native.render()


class TabletopObserver:
    """OpenSpiel's observer: a seat's own view (or a spectator's) as the flat tensor."""

    def __init__(self, length: int, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("tabletop games provide observations, not perfect-recall information states")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observation shows one seat's private information, never all of them")
        self.spectator = private == pyspiel.PrivateInfoType.NONE
        self.tensor = np.zeros(length, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TabletopState, player: int):
        state.native.observation_into(self.tensor, None if self.spectator else player)

    def string_from(self, state: TabletopState, player: int):
        return state.native.render(None if self.spectator else player)


class TabletopGame(pyspiel.Game):
    """Base of the registered games; each subclass names its game in ``NAME``."""

    NAME = ""
    GAME_TYPE: pyspiel.GameType

    def __init__(self, params=None):
        params = {**_parameters(self.NAME), **(params or {})}
        self.options = _options(self.NAME, params)
        self.seed = int(params["seed"])
        probe = State(self.NAME, self.seed, self.options)
        cap = int(params["max_steps"]) or probe.max_game_length or DEFAULT_MAX_STEPS[self.NAME]
        if probe.max_game_length is not None:
            cap = min(cap, probe.max_game_length)
        self.cap = cap
        self.observation_len = probe.observation_len
        n = probe.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=cap,
        )
        super().__init__(self.GAME_TYPE, info, params)
        self.games_started = 0

    def new_initial_state(self):
        # Each new game gets its own deal, reproducible from the `seed` parameter.
        seed = derive_seed(self.seed, self.games_started)
        self.games_started += 1
        return TabletopState(self, State(self.NAME, seed, self.options))

    def make_py_observer(self, iig_obs_type=None, params=None):
        return TabletopObserver(self.observation_len, iig_obs_type, params)


def _register(name: str) -> type:
    # The title and the player range come from the game's own description.
    described = about(name)
    low, high = described["players"]["min"], described["players"]["max"]
    game_type = pyspiel.GameType(
        short_name=f"tabletop_{name}",
        long_name=f"tabletop {described['title']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(name),
    )
    cls = type(f"Tabletop{name.capitalize()}Game", (TabletopGame,), {"NAME": name, "GAME_TYPE": game_type})
    pyspiel.register_game(game_type, cls)
    return cls


GAME_CLASSES = {name: _register(name) for name in games()}


class NativeBot(pyspiel.Bot):
    """A built-in bot (``tabletop.Bot``: ``random``, ``heuristic``, ``easy``, ``medium``,
    ``hard``, ``ismcts``) as an OpenSpiel bot, e.g. an opponent in ``evaluate_bots``. It
    reads only the acting seat's view of the native state."""

    def __init__(self, level: str = "medium", seed: int = 0):
        super().__init__()
        self.bot = Bot(level, seed)

    def step(self, state):
        return self.bot.choose(state.native)

    def restart_at(self, state):
        pass
