"""The fields of a match's state, apart from the actions that change it: :class:`MatchState` is
what a :class:`~bot.rules.draft.Draft` edits, and :class:`~bot.rules.match.Match` adds the actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from bot.rules.dice import Dice, DiceSource
from bot.rules.events import Action, Event, GameOver, Score
from bot.rules.options import MatchOptions
from bot.rules.position import Play, Position

Phase = Literal["roll", "move", "doubled", "resigned", "over"]


@dataclass(frozen=True, slots=True)
class MatchState:
    """The whole state of a match, without its actions (:class:`~bot.rules.match.Match` adds them).

    Players are 0 and 1 (0 is the first name in a ``.mat`` file). The fields:

    - ``phase``: ``"roll"`` (the player on roll may double, roll or resign), ``"move"`` (they
      rolled ``dice`` and must play, or resign), ``"doubled"`` (the opponent must take, drop or
      beaver ``offered_cube``), ``"resigned"`` (the opponent must accept or reject the
      ``resignation`` level), ``"over"`` (the match is over; ``winner`` is set).
    - ``on_roll``: whose turn it is; :attr:`Match.turn`: who must act now.
    - ``position``: the board, the player on roll as the mover (after a game played out, the
      loser is the mover); ``dice``: the roll to play, higher die first, or None.
    - ``cube_value``, ``cube_owner`` (None = centred), ``score``, ``game_number``,
      ``crawford`` (this game is the Crawford game), ``post_crawford``, ``auto_doubles`` (made
      this game), ``games`` (the finished games' :class:`GameOver`).
    - ``actions`` (what players did: replayable), ``record`` (every event since the start),
      :attr:`Match.events` (those of the last action), ``dice_used`` (dice drawn so far).
    - A match restored by :meth:`Match.from_snapshot` holds less history (``has_full_record`` is
      False): ``actions`` are those since the snapshot, after ``earlier_actions`` others
      (:attr:`Match.action_count` counts both); ``record`` starts with the current game's last play
      only, and ``games`` with the last finished game only.

    This list is the only one of the state: an action edits a copy with
    :func:`dataclasses.replace` (see :mod:`bot.rules.draft`), and the defaults are the state
    before the first game.

    With the live-cube rule a drop in match play never reaches the match length (the doubler
    gets the cube's value before the double, and may double only while that leaves them short),
    so only a money game ends on a drop.
    """

    options: MatchOptions
    dice_source: DiceSource = field(repr=False)
    dice_used: int = 0
    score: Score = (0, 0)
    game_number: int = 0
    crawford: bool = False
    post_crawford: bool = False
    position: Position = field(default=Position.initial(), repr=False)
    on_roll: int = 0
    phase: Phase = "roll"
    dice: Dice | None = None
    cube_value: int = 1
    cube_owner: int | None = None
    resignation: int = 0
    auto_doubles: int = 0
    winner: int | None = None
    games: tuple[GameOver, ...] = field(default=(), repr=False)
    actions: tuple[Action, ...] = field(default=(), repr=False)
    record: tuple[Event, ...] = field(default=(), repr=False)
    events_start: int = field(default=0, repr=False)
    earlier_actions: int = field(default=0, repr=False)
    has_full_record: bool = field(default=True, repr=False)
    _plays: tuple[Play, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def action_count(self) -> int:
        """How many actions players have taken since the start (restored or not)."""
        return self.earlier_actions + len(self.actions)

    @property
    def length(self) -> int:
        """Points to win the match; 0 for a money game."""
        return self.options.length

    @property
    def turn(self) -> int | None:
        """Who must act now: the player on roll, or their opponent when a double or a
        resignation waits for an answer. None when the match is over."""
        if self.phase in ("roll", "move"):
            return self.on_roll
        if self.phase == "over":
            return None
        return 1 - self.on_roll
