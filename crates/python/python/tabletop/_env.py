"""What the Gymnasium and PettingZoo wrappers share: their arguments' checks, the space
of one seat's observation and rendering."""

from __future__ import annotations

from collections.abc import Callable

import gymnasium
import numpy as np
from gymnasium import spaces


def check_env_args(render_modes: list[str], render_mode: str | None, max_steps: int | None):
    """Raises a ``ValueError`` for a render mode not in ``render_modes`` or a
    ``max_steps`` below 1."""
    if render_mode is not None and render_mode not in render_modes:
        raise ValueError(f"render_mode must be one of {render_modes}, not {render_mode!r}")
    if max_steps is not None and max_steps < 1:
        raise ValueError(f"max_steps must be at least 1, not {max_steps}")


def observation_space(n: int, m: int) -> spaces.Dict:
    """One seat's observation: ``observation`` (m floats, its own view) and
    ``action_mask`` (n, 1 at each legal action index)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(m,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
        }
    )


def render_board(render_mode: str | None, board: Callable[[], str]) -> str | None:
    """The text ``board()`` for ``ansi``; printed, and ``None``, for ``human``; a warning
    and ``None`` without a render mode."""
    if render_mode is None:
        gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='ansi' or 'human'.")
        return None
    text = board()
    if render_mode == "human":
        print(text)
        return None
    return text
