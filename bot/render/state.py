"""The renderer's own small view-model: everything a board image shows, nothing more."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from bot.rules import Position

Phase = Literal["roll", "move", "doubled", "resigned", "over"]
PHASES: tuple[str, ...] = ("roll", "move", "doubled", "resigned", "over")
RESULTS: tuple[str, ...] = ("single", "gammon", "backgammon")


class PlayShown(Protocol):
    """What the board shows of a play: an engine ``Play``, or a recorded one."""

    @property
    def dice(self) -> tuple[int, int]: ...

    @property
    def notation(self) -> str: ...

    @property
    def steps(self) -> tuple[tuple[int, int], ...]: ...

    @property
    def hits(self) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class LastPlay:
    """The previous play and who made it. ``play.steps`` are on that player's own numbering."""

    player: int
    play: PlayShown


@dataclass(frozen=True)
class BoardState:
    """One moment of a game, as the board image shows it.

    ``position``'s mover is ``players[on_roll]``. ``phase`` says what is awaited:

    - ``"roll"``: ``players[on_roll]`` to roll (or double);
    - ``"move"``: ``players[on_roll]`` to move ``dice``; ``dice_used`` of them may already be
      played (they are drawn dimmed);
    - ``"doubled"``: ``players[on_roll]`` offered a double and the other player must take or drop
      (or beaver, when ``beavers``: a money game that allows them). ``cube_value`` is still the
      cube's value before the offer; the offer is twice that;
    - ``"resigned"``: ``players[on_roll]`` offered to resign ``resignation`` (1 a single game,
      2 a gammon, 3 a backgammon; 0 = not said), the other must accept or reject;
    - ``"over"``: the game is over and ``winner`` won it (``score`` already counts it), a
      ``result`` (single, gammon or backgammon; None = not said) worth ``points``.

    A match on the clock has ``clock``: the seconds left in each player's bank;
    ``clock_running`` is the player whose time runs (None: nobody's), after ``clock_delay``
    seconds still left of the free delay.
    """

    position: Position
    on_roll: int
    players: tuple[str, str]
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    cube_value: int = 1
    cube_owner: int | None = None
    dice: tuple[int, int] | None = None
    dice_used: int = 0
    phase: str = "roll"
    winner: int | None = None
    last_play: LastPlay | None = None
    resignation: int = 0
    beavers: bool = False
    result: str | None = None
    points: int = 0
    clock: tuple[float, float] | None = None
    clock_running: int | None = None
    clock_delay: float = 0.0

    @property
    def cube_in_play(self) -> bool:
        """Whether the board shows a cube: not in a 1-point match nor in the Crawford game,
        where nobody may double (GNU Backgammon's board draws none there either)."""
        return self.match_length != 1 and not self.crawford

    def __post_init__(self) -> None:
        if self.on_roll not in (0, 1):
            raise ValueError(f"on_roll must be 0 or 1, not {self.on_roll!r}")
        if self.phase not in PHASES:
            raise ValueError(f"phase must be one of {', '.join(PHASES)}, not {self.phase!r}")
        if self.cube_owner not in (None, 0, 1):
            raise ValueError(f"cube_owner must be None, 0 or 1, not {self.cube_owner!r}")
        if self.winner not in (None, 0, 1):
            raise ValueError(f"winner must be None, 0 or 1, not {self.winner!r}")
        if self.last_play is not None and self.last_play.player not in (0, 1):
            raise ValueError(f"last_play.player must be 0 or 1, not {self.last_play.player!r}")
        if self.dice is not None and any(not 1 <= die <= 6 for die in self.dice):
            raise ValueError(f"dice must be from 1 to 6, not {self.dice!r}")
        if self.resignation not in (0, 1, 2, 3):
            raise ValueError(f"resignation must be 0 to 3, not {self.resignation!r}")
        if self.result is not None and self.result not in RESULTS:
            raise ValueError(
                f"result must be None or one of {', '.join(RESULTS)}, not {self.result!r}"
            )
        if self.points < 0:
            raise ValueError(f"points must not be negative, not {self.points!r}")
        if self.clock is not None and any(bank < 0 for bank in self.clock):
            raise ValueError(f"clock banks must not be negative, not {self.clock!r}")
        if self.clock_running not in (None, 0, 1) or (
            self.clock_running is not None and self.clock is None
        ):
            raise ValueError(
                f"clock_running must be None, or 0 or 1 with a clock, not {self.clock_running!r}"
            )
        if self.clock_delay < 0:
            raise ValueError(f"clock_delay must not be negative, not {self.clock_delay!r}")
