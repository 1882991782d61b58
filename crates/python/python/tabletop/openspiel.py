"""Every tabletop game as an OpenSpiel Python game.

Importing this module registers ``tabletop_dropsite``, ``tabletop_distopia`` and
``tabletop_euphoria`` with ``pyspiel``, so ``pyspiel.load_game("tabletop_dropsite",
{"players": 3, "target": 10})`` and OpenSpiel's own tools (random simulation with
serialization, ``serialize_game_and_state``, its MCTS and IS-MCTS bots,
``generate_playthrough``, ``evaluate_bots``) work on them unchanged.

The games are sequential, imperfect-information and *explicit stochastic*: a game opens
with ``DEAL_DRAWS`` chance nodes, each drawing one byte uniformly (256 outcomes); the
eight bytes are the game's 64-bit seed, which deals the cards and starts the random
stream kept inside the state that makes every later draw. So a state is a function of
its history (chance outcomes and actions), a loaded game holds no random state of its
own, and ``serialize_game_and_state`` brings back the state exactly (its native part
through the JSON state file, docs/formats.md). No seat's observation or information state
tells the seed bytes.

Information states have perfect recall: what a seat saw at the start and every move
since as that seat may know it (the game log's events in words, ``Game::events``), and
its view now. ``resample_from_infostate`` redraws what the seat cannot see
(``State.determinize``), keeping its information state. Utilities are the outcome's
rewards (1 for a sole winner, 1/k each when k share first place, 0 otherwise), so every
game is constant-sum with sum 1. ``max_steps`` caps a game: a game still running after
that many actions ends as a draw (1/n each), and is the declared maximum game length (by
default the rules' own bound where there is one).
"""

from __future__ import annotations

import zlib

import numpy as np
import pyspiel

from ._native import Bot, State, about, default_options, games

# A cap for games whose rules give no bound on their length: far above any game seen in
# random play (docs/python.md).
DEFAULT_MAX_STEPS = {"distopia": 2_000, "euphoria": 20_000}
# Chance nodes opening a game, one seed byte each.
DEAL_DRAWS = 8
_NONE = ""
# Floats per action in the information-state tensor, after the observation.
_PER_STEP = 3


def _parameters(game: str) -> dict:
    """The pyspiel parameter defaults: the game's options (unset ones as "") and the cap."""
    params = {}
    for key, value in default_options(game).items():
        if value is None:
            params[key] = _NONE
        elif isinstance(value, (bool, int, float, str)):
            params[key] = value
    params["max_steps"] = 0
    return params


def _options(game: str, params: dict) -> dict:
    """The game's options from pyspiel parameters."""
    defaults = default_options(game)
    return {k: v for k, v in params.items() if k in defaults and v != _NONE}


class _Book:
    """What each viewer (each seat, then the spectator) was told, move by move: its line
    in words and its three tensor entries per action (``lines[v][k]``, ``records[v, k]``
    for move ``k``), and its board at the start.

    Moves are told lazily, when an information state is asked for (a rollout that never
    asks pays nothing): the book keeps the moves, a native state ``origin`` at move
    ``base`` and one, ``snapshot``, at move ``told``, up to which lines and records are
    written. States copied from one another share a book (OpenSpiel clones states all
    the time); a state reads the first ``n`` moves, and one that moves on from a shared
    past copies that past first, so a book only ever grows at its end."""

    __slots__ = ("start", "moves", "lines", "records", "base", "origin", "told", "snapshot")

    def __init__(self, start, capacity, native, base=0):
        self.start = list(start)
        self.moves = []
        self.lines = [[] for _ in start]
        self.records = np.zeros((len(start), capacity, _PER_STEP), np.float32)
        self.base = base
        self.origin = native.clone()
        self.told = base
        self.snapshot = native.clone()

    def upto(self, n: int) -> "_Book":
        """A book of this one's first `n` moves."""
        book = _Book.__new__(_Book)
        book.start = list(self.start)
        book.moves = self.moves[: n - self.base]
        book.base, book.origin = self.base, self.origin
        told = min(self.told, n)
        book.lines = [lines[:told] for lines in self.lines]
        book.records = np.zeros_like(self.records)
        book.records[:, :told] = self.records[:, :told]
        book.told = told
        if told == self.told:
            book.snapshot = self.snapshot.clone()
        else:
            snapshot = self.origin.clone()
            for _, index in self.moves[: told - self.base]:
                snapshot.apply(index)
            book.snapshot = snapshot
        return book

    def tell(self, n: int):
        """Writes the lines and records of the first `n` moves."""
        seats = len(self.start) - 1
        actions = self.snapshot.num_distinct_actions
        capacity = self.records.shape[1]
        while self.told < n:
            actor, index = self.moves[self.told - self.base]
            notation = self.snapshot.action_to_string(index)
            told = self.snapshot.apply_told(index)
            for v, (text, known) in enumerate(told):
                who = "you" if v == actor else f"seat {actor + 1}"
                what = f" {notation}" if known else ""
                self.lines[v].append(f"{who}{what}: {text}" if text else f"{who}{what}")
                if self.told < capacity:
                    seat = 0 if v == seats else v
                    self.records[v, self.told] = (
                        (1 + (actor - seat) % seats) / seats,
                        (index + 1) / actions if known else 0.0,
                        (1 + zlib.crc32(text.encode())) / 2.0**32,
                    )
            self.told += 1

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __getstate__(self):
        state = {k: getattr(self, k) for k in self.__slots__}
        state["records"] = self.records[:, : self.told].copy()
        state["capacity"] = self.records.shape[1]
        return state

    def __setstate__(self, state):
        records = state.pop("records")
        capacity = state.pop("capacity")
        for k, v in state.items():
            setattr(self, k, v)
        self.records = np.zeros((len(self.start), capacity, _PER_STEP), np.float32)
        self.records[:, : self.told] = records


class TabletopState(pyspiel.State):
    """A tabletop game in progress, as an OpenSpiel state: ``DEAL_DRAWS`` chance nodes
    (the seed), then the game, whose native state is ``native`` (``None`` before the
    deal)."""

    def __init__(self, game: "TabletopGame"):
        super().__init__(game)
        self.name = game.NAME
        self.options = game.options
        self.cap = game.cap
        self.draws = []
        self.native = None
        self.book = None
        self.boards = {}
        self.steps = 0
        self.resamples = 0

    # The deal.

    def _deal(self):
        seed = int.from_bytes(bytes(self.draws), "little")
        self.native = State(self.name, seed, self.options)
        seats = self.native.num_players
        start = [self.native.render(seat) for seat in range(seats)] + [self.native.render(None)]
        self.book = _Book(start, self.cap, self.native)

    def chance_outcomes(self):
        if self.native is not None:
            return []
        return [(byte, 1.0 / 256) for byte in range(256)]

    # The game.

    def current_player(self):
        if self.native is None:
            return pyspiel.PlayerId.CHANCE
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.native.current_player()

    def _legal_actions(self, player):
        if self.native is None or self.is_terminal() or player != self.native.current_player():
            return []
        return self.native.legal_actions()

    def _apply_action(self, action):
        if self.native is None:
            if not 0 <= action < 256:
                raise ValueError(f"a chance outcome is a byte, 0 to 255, not {action}")
            self.draws.append(int(action))
            if len(self.draws) == DEAL_DRAWS:
                self._deal()
            return
        actor = self.native.current_player()
        self.native.apply(int(action))
        book = self.book
        if book.base + len(book.moves) != self.steps:
            book = self.book = book.upto(self.steps)
        book.moves.append((actor, int(action)))
        self.steps += 1
        self.boards = {}

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        if self.native is None:
            return State(self.name, 0, self.options).action_to_string(int(action))
        return self.native.action_to_string(int(action))

    def is_terminal(self):
        return self.native is not None and (self.native.is_over() or self.steps >= self.cap)

    def returns(self):
        n = self.get_game().num_players()
        if self.native is None:
            return [0.0] * n
        rewards = self.native.rewards()
        if rewards is not None:
            return list(rewards)
        if self.steps >= self.cap:
            return [1.0 / n] * n
        return [0.0] * n

    # Information states.

    def board(self, player):
        """The text board `player` (None: a spectator) sees now, kept until the next move."""
        board = self.boards.get(player)
        if board is None:
            board = self.boards[player] = self.native.render(player)
        return board

    def _viewer(self, player):
        """The index of a viewer in the log: the seat, or the spectator's after them."""
        return self.native.num_players if player is None else player

    def information_state_lines(self, player):
        """What `player` (a seat, or None for the public record) has seen, line by line:
        its board at the start, then every move as it may know it, then its board now."""
        if self.native is None:
            return []
        v = self._viewer(player)
        book = self.book
        book.tell(self.steps)
        lines = book.lines[v][: self.steps]
        return ["at the start:", book.start[v], *lines, "now:", self.board(player)]

    def information_state_into(self, out, player):
        """The information-state tensor of `player` (None: the public one) into `out`:
        the observation now, then per action (up to the cap) the actor's seat counted from
        the viewer, the action's index when the viewer may know all of it, and a digest
        of what the viewer was told of it."""
        out.fill(0.0)
        if self.native is None:
            return
        length = self.native.observation_len
        self.native.observation_into(out[:length], player)
        self.book.tell(self.steps)
        n = min(self.steps, self.book.records.shape[1])
        out[length : length + _PER_STEP * n] = self.book.records[self._viewer(player), :n].ravel()

    def resample_from_infostate(self, player, probability_sampler):
        """A state `player` cannot tell from this one: what it cannot see redrawn
        (``State.determinize``, seeded from the sampler), its information state kept.
        The other seats' records of the past become the public record (what they saw of
        their own hands is redrawn with them)."""
        if self.native is None:
            raise ValueError("nothing is hidden before the deal: clone the state instead")
        self.resamples += 1
        seed = int(probability_sampler() * 2.0**52) ^ (self.resamples * 0x9E3779B97F4A7C15)
        seed &= (1 << 64) - 1
        twin = TabletopState(self.get_game())
        twin.draws = list(self.draws)
        twin.native = self.native.determinize(player, seed)
        twin.steps = self.steps
        seats = self.native.num_players
        self.book.tell(self.steps)
        book = self.book.upto(self.steps)
        public = seats
        for s in range(seats):
            if s != player:
                book.start[s] = book.start[public]
                book.lines[s] = list(book.lines[public])
                book.records[s] = book.records[public]
        # Moves from here are told from the redrawn game.
        book.origin, book.snapshot = twin.native.clone(), twin.native.clone()
        book.base = book.told = self.steps
        book.moves = []
        twin.book = book
        return twin

    def __str__(self):
        if self.native is None:
            return f"the game is being set up: {len(self.draws)} of {DEAL_DRAWS} seed bytes drawn"
        return self.board(None)


class TabletopObserver:
    """OpenSpiel's observer: a seat's own view (or a spectator's) as the flat tensor, or,
    with perfect recall, its information state."""

    def __init__(self, game: "TabletopGame", iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observation shows one seat's private information, never all of them")
        self.spectator = private == pyspiel.PrivateInfoType.NONE
        self.recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if self.recall:
            self.tensor = np.zeros(game.observation_len + _PER_STEP * game.cap, np.float32)
            self.dict = {"info_state": self.tensor}
        else:
            self.tensor = np.zeros(game.observation_len, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: TabletopState, player: int):
        seat = None if self.spectator else player
        if self.recall:
            state.information_state_into(self.tensor, seat)
        elif state.native is None:
            self.tensor.fill(0.0)
        else:
            state.native.observation_into(self.tensor, seat)

    def string_from(self, state: TabletopState, player: int):
        seat = None if self.spectator else player
        if self.recall:
            return "\n".join(state.information_state_lines(seat))
        if state.native is None:
            return "the game is being set up"
        return state.board(seat)


class TabletopGame(pyspiel.Game):
    """Base of the registered games; each subclass names its game in ``NAME``."""

    NAME = ""
    GAME_TYPE: pyspiel.GameType

    def __init__(self, params=None):
        params = {**_parameters(self.NAME), **(params or {})}
        self.options = _options(self.NAME, params)
        probe = State(self.NAME, 0, self.options)
        cap = int(params["max_steps"]) or probe.max_game_length or DEFAULT_MAX_STEPS[self.NAME]
        if probe.max_game_length is not None:
            cap = min(cap, probe.max_game_length)
        self.cap = cap
        self.observation_len = probe.observation_len
        n = probe.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_distinct_actions,
            max_chance_outcomes=256,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=cap,
        )
        super().__init__(self.GAME_TYPE, info, params)

    def new_initial_state(self):
        return TabletopState(self)

    def max_chance_nodes_in_history(self):
        return DEAL_DRAWS

    def make_py_observer(self, iig_obs_type=None, params=None):
        return TabletopObserver(self, iig_obs_type, params)


def _register(name: str) -> type:
    # The title and the player range come from the game's own description.
    described = about(name)
    low, high = described["players"]["min"], described["players"]["max"]
    game_type = pyspiel.GameType(
        short_name=f"tabletop_{name}",
        long_name=f"tabletop {described['title']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(name),
    )
    cls = type(f"Tabletop{name.capitalize()}Game", (TabletopGame,), {"NAME": name, "GAME_TYPE": game_type})
    pyspiel.register_game(game_type, cls)
    return cls


GAME_CLASSES = {name: _register(name) for name in games()}


class NativeBot(pyspiel.Bot):
    """A built-in bot (``tabletop.Bot``: ``random``, ``heuristic``, ``pimc``, ``easy``,
    ``medium``, ``hard``, ``ismcts``, ``ismcts:N``) as an OpenSpiel bot, e.g. an opponent in ``evaluate_bots``. It
    reads only the acting seat's view of the native state."""

    def __init__(self, level: str = "medium", seed: int = 0):
        super().__init__()
        self.bot = Bot(level, seed)

    def step(self, state):
        return self.bot.choose(state.native)

    def restart_at(self, state):
        pass
