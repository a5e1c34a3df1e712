"""A match (or a money game) between two players: the cube, scoring, Crawford and resignations.

A :class:`Match` is an immutable value. Every action is a method that names the acting player
(0 or 1), checks that the action is theirs to take now, and returns a new ``Match``; a refused
action raises a :class:`MatchError` (a ``ValueError``) with a short message for the player, and
the old value is untouched. What an action set off is in the new match's :attr:`Match.events`
(small dataclasses; the caller words them), and everything since the start is in
:attr:`Match.record`. Things that need nobody's decision happen by themselves: the opening roll,
a forced play or a roll with no legal play, scoring a finished game and starting the next one.

The dice come from a :class:`~bot.engine.dice.DiceSource`, a pure function of the die number, so
the player's actions (:attr:`Match.actions`) and the source rebuild the match exactly:
:meth:`Match.replay`, :meth:`Match.to_data` and :meth:`Match.from_data`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, cast

from bot.engine.dice import DiceSource, VerifiableDice, dice_from_data
from bot.engine.matchid import (
    GAME_DROPPED,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    MatchIdFields,
    encode_match_id,
)
from bot.engine.notation import NO_LEGAL_MOVE
from bot.engine.position import Play, Position

Phase = Literal["roll", "move", "doubled", "resigned", "over"]
ActionKind = Literal["roll", "move", "double", "take", "drop", "beaver", "resign", "accept",
                     "reject"]
Dice = tuple[int, int]
Score = tuple[int, int]

MAX_LENGTH = 64  # the longest match GNU Backgammon plays
MAX_CUBE = 1 << 12  # the cube stops at 4096
DEFAULT_AUTOMATIC_DOUBLES = 1  # ``automatic_doubles=True``: one per game, the usual house rule
MAX_AUTOMATIC_DOUBLES = 3  # the most automatic doubles per game a match may ask for
RESIGN_LEVELS: Mapping[str, int] = {"single": 1, "gammon": 2, "backgammon": 3}
LEVEL_NAMES = ("", "single", "gammon", "backgammon")
FORMAT_VERSION = 1


# -- errors ------------------------------------------------------------------------------------


class MatchOptionsError(ValueError):
    """Options no match can be played with; the message says which and why."""


class MatchError(ValueError):
    """An action the match refuses; the message is meant for the player."""


class NotYourTurnError(MatchError):
    """The player acted when it was the other player's turn or decision."""


class IllegalActionError(MatchError):
    """It is the player's turn, but the rules or the state of play forbid this action."""


class MatchOverError(MatchError):
    """The match is over: nothing more can be done."""


# -- options and actions -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """How the match is played. ``length`` 0 is a money game (a single game).

    ``automatic_doubles`` is how many times per game equal opening dice may turn the cube: 0
    (off) to :data:`MAX_AUTOMATIC_DOUBLES`; ``True`` means :data:`DEFAULT_AUTOMATIC_DOUBLES`.
    Stored data keeps the number, so a match replays with the cap it was played under.
    ``jacoby``, ``beavers`` and ``automatic_doubles`` are money-game options.
    """

    length: int = 0
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.length, bool) or not isinstance(self.length, int):
            raise MatchOptionsError(f"the match length must be a whole number, not "
                                    f"{self.length!r}")
        if not 0 <= self.length <= MAX_LENGTH:
            raise MatchOptionsError(f"a match is 1 to {MAX_LENGTH} points (0 for a money game), "
                                    f"not {self.length}")
        auto = self.automatic_doubles
        if auto is True:
            object.__setattr__(self, "automatic_doubles", DEFAULT_AUTOMATIC_DOUBLES)
        elif auto is False:
            object.__setattr__(self, "automatic_doubles", 0)
        elif (not isinstance(auto, int) or not 0 <= auto <= MAX_AUTOMATIC_DOUBLES):
            raise MatchOptionsError(
                f"automatic doubles are how many per game: 0 (off) to {MAX_AUTOMATIC_DOUBLES}, "
                f"not {auto!r}")
        if self.length:
            for name in ("jacoby", "beavers", "automatic_doubles"):
                if getattr(self, name):
                    raise MatchOptionsError(f"{name.replace('_', ' ')} is a money-game option")
        else:
            object.__setattr__(self, "crawford", False)

    @property
    def money(self) -> bool:
        return self.length == 0

    def to_data(self) -> dict[str, Any]:
        return {"length": self.length, "crawford": self.crawford, "jacoby": self.jacoby,
                "beavers": self.beavers, "automatic_doubles": self.automatic_doubles}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> MatchOptions:
        return cls(length=int(data["length"]), crawford=bool(data["crawford"]),
                   jacoby=bool(data["jacoby"]), beavers=bool(data["beavers"]),
                   automatic_doubles=int(data["automatic_doubles"]))


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a player did: enough, with the dice, to replay the match.

    ``play`` is the play in gnubg notation (for ``move``); ``level`` 1-3 is single, gammon or
    backgammon (for ``resign``).
    """

    kind: ActionKind
    player: int
    play: str | None = None
    level: int | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.kind, "player": self.player}
        if self.play is not None:
            data["play"] = self.play
        if self.level is not None:
            data["level"] = self.level
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Action:
        kind = data["action"]
        if kind not in _ACTIONS:
            raise ValueError(f"unknown action {kind!r}")
        play = data.get("play")
        level = data.get("level")
        return cls(kind, int(data["player"]), None if play is None else str(play),
                   None if level is None else int(level))


# -- events ------------------------------------------------------------------------------------


class _Event:
    __slots__ = ()
    kind: ClassVar[str]

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"event": self.kind}
        names = cast("tuple[str, ...]", type(self).__slots__)
        for name in names:
            value = getattr(self, name)
            data[name] = [list(v) if isinstance(v, tuple) else v for v in value] \
                if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True, slots=True)
class GameStarted(_Event):
    """Game ``game`` begins at ``score``; ``crawford`` when it is the Crawford game."""

    kind: ClassVar[str] = "game_started"
    game: int
    score: Score
    crawford: bool


@dataclass(frozen=True, slots=True)
class OpeningRoll(_Event):
    """Each player rolled one die: ``dice`` = (player 0's, player 1's).

    ``winner`` moves first with both dice; None when they were equal and are rolled again, in
    which case ``cube`` may have been turned by an automatic double.
    """

    kind: ClassVar[str] = "opening_roll"
    dice: Dice
    winner: int | None
    cube: int
    automatic_double: bool = False


@dataclass(frozen=True, slots=True)
class Rolled(_Event):
    kind: ClassVar[str] = "rolled"
    player: int
    dice: Dice


@dataclass(frozen=True, slots=True)
class Moved(_Event):
    """A play. ``forced`` when it was the only one (it happened by itself); ``steps`` empty and
    ``play`` ``'no legal move'`` when nothing could be played. ``hits`` are the mover's points
    where a blot was hit."""

    kind: ClassVar[str] = "moved"
    player: int
    dice: Dice
    play: str
    steps: tuple[tuple[int, int], ...]
    hits: tuple[int, ...]
    forced: bool

    @property
    def no_legal_move(self) -> bool:
        return not self.steps


@dataclass(frozen=True, slots=True)
class Doubled(_Event):
    """``player`` offers the cube at ``cube``."""

    kind: ClassVar[str] = "doubled"
    player: int
    cube: int


@dataclass(frozen=True, slots=True)
class Took(_Event):
    """``player`` took and now owns the cube at ``cube``."""

    kind: ClassVar[str] = "took"
    player: int
    cube: int


@dataclass(frozen=True, slots=True)
class Beavered(_Event):
    """``player`` took and at once redoubled: they own the cube at ``cube``."""

    kind: ClassVar[str] = "beavered"
    player: int
    cube: int


@dataclass(frozen=True, slots=True)
class Dropped(_Event):
    """``player`` refused the cube offered at ``cube``: the game is over (see GameOver)."""

    kind: ClassVar[str] = "dropped"
    player: int
    cube: int


@dataclass(frozen=True, slots=True)
class ResignationOffered(_Event):
    """``player`` offers to resign at ``level`` (1 single, 2 gammon, 3 backgammon)."""

    kind: ClassVar[str] = "resignation_offered"
    player: int
    level: int
    points: int


@dataclass(frozen=True, slots=True)
class ResignationAccepted(_Event):
    """``player`` accepted the opponent's resignation (see GameOver)."""

    kind: ClassVar[str] = "resignation_accepted"
    player: int
    level: int
    points: int


@dataclass(frozen=True, slots=True)
class ResignationRejected(_Event):
    """``player`` rejected the opponent's resignation: play goes on."""

    kind: ClassVar[str] = "resignation_rejected"
    player: int
    level: int


@dataclass(frozen=True, slots=True)
class GameOver(_Event):
    """Game ``game`` is over: ``winner`` scores ``points``.

    ``result`` is single, gammon or backgammon; ``by`` is ``'play'`` (bore off),
    ``'drop'`` or ``'resignation'``; ``jacoby`` when the Jacoby rule made a gammon or
    backgammon count single; ``score`` is the score after the game.
    """

    kind: ClassVar[str] = "game_over"
    game: int
    winner: int
    points: int
    result: Literal["single", "gammon", "backgammon"]
    by: Literal["play", "drop", "resignation"]
    cube: int
    score: Score
    jacoby: bool = False


@dataclass(frozen=True, slots=True)
class MatchOver(_Event):
    kind: ClassVar[str] = "match_over"
    winner: int
    score: Score


Event = (GameStarted | OpeningRoll | Rolled | Moved | Doubled | Took | Beavered | Dropped
         | ResignationOffered | ResignationAccepted | ResignationRejected | GameOver | MatchOver)


# -- the match ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Match:
    """The whole state of a match. Build one with :meth:`start`; act with the action methods.

    Players are 0 and 1 (0 is the first name in a ``.mat`` file). The fields:

    - ``phase``: ``"roll"`` (the player on roll may double, roll or resign), ``"move"`` (they
      rolled ``dice`` and must play, or resign), ``"doubled"`` (the opponent must take, drop or
      beaver ``offered_cube``), ``"resigned"`` (the opponent must accept or reject the
      ``resignation`` level), ``"over"`` (the match is over; ``winner`` is set).
    - ``on_roll``: whose turn it is; :attr:`turn`: who must act now.
    - ``position``: the board, the player on roll as the mover (after a game played out, the
      loser is the mover); ``dice``: the roll to play, higher die first, or None.
    - ``cube_value``, ``cube_owner`` (None = centred), ``score``, ``game_number``,
      ``crawford`` (this game is the Crawford game), ``post_crawford``, ``auto_doubles`` (made
      this game), ``games`` (the finished games' :class:`GameOver`).
    - ``actions`` (what players did: replayable), ``record`` (every event since the start),
      :attr:`events` (those of the last action), ``dice_used`` (dice drawn so far).

    With the live-cube rule a drop in match play never reaches the match length (the doubler
    gets the cube's value before the double, and may double only while that leaves them short),
    so only a money game ends on a drop.
    """

    options: MatchOptions
    dice_source: DiceSource = field(repr=False)
    dice_used: int
    score: Score
    game_number: int
    crawford: bool
    post_crawford: bool
    position: Position = field(repr=False)
    on_roll: int
    phase: Phase
    dice: Dice | None
    cube_value: int
    cube_owner: int | None
    resignation: int
    auto_doubles: int
    winner: int | None
    games: tuple[GameOver, ...] = field(repr=False)
    actions: tuple[Action, ...] = field(repr=False)
    record: tuple[Event, ...] = field(repr=False)
    events_start: int = field(repr=False)
    _plays: tuple[Play, ...] | None = field(default=None, compare=False, repr=False)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def start(cls, length: int = 0, *, crawford: bool = True, jacoby: bool = False,
              beavers: bool = False, automatic_doubles: int | bool = 0,
              dice: DiceSource | None = None) -> Match:
        """A new match to ``length`` points (0 = a money game), its opening roll made.

        ``dice`` defaults to a fresh :class:`VerifiableDice` (a secret ``secrets`` seed).
        """
        options = MatchOptions(length=length, crawford=crawford, jacoby=jacoby, beavers=beavers,
                               automatic_doubles=automatic_doubles)
        return cls.with_options(options, dice=dice)

    @classmethod
    def with_options(cls, options: MatchOptions, *, dice: DiceSource | None = None) -> Match:
        source: DiceSource = VerifiableDice.generate() if dice is None else dice
        draft = _Draft(options, source)
        draft.start_game()
        return draft.freeze()

    @classmethod
    def replay(cls, options: MatchOptions, dice: DiceSource, actions: Iterable[Action]) -> Match:
        """The match that ``actions`` made from the start, with the same dice."""
        match = cls.with_options(options, dice=dice)
        for action in actions:
            match = match.apply(action)
        return match

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-able data (with the secret seed!) that :meth:`from_data` rebuilds."""
        return {"format": FORMAT_VERSION, "options": self.options.to_data(),
                "dice": self.dice_source.to_data(),
                "actions": [action.to_data() for action in self.actions]}

    @classmethod
    def from_data(cls, data: Mapping[str, Any], *, dice_key: bytes | None = None) -> Match:
        """The match :meth:`to_data` described; ``dice_key`` for dice made with the server's
        key (:class:`~bot.engine.dice.KeyedDice`)."""
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"unknown match data format {data.get('format')!r}")
        dice = dice_from_data(data["dice"], key=dice_key)
        return cls.replay(MatchOptions.from_data(data["options"]), dice,
                          (Action.from_data(item) for item in data["actions"]))

    # -- facts --------------------------------------------------------------------------------

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

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def events(self) -> tuple[Event, ...]:
        """What the last action set off, in order."""
        return self.record[self.events_start:]

    @property
    def offered_cube(self) -> int | None:
        """The cube value on offer while a double waits for an answer."""
        return self.cube_value * 2 if self.phase == "doubled" else None

    @property
    def commitment(self) -> str:
        """Hex SHA-256 of the dice seed, published at the start."""
        return self.dice_source.commitment

    @property
    def revealed_seed(self) -> str | None:
        """The dice seed (hex) once the match is over; None before."""
        return self.dice_source.reveal() if self.phase == "over" else None

    def legal_plays(self) -> list[Play]:
        """The plays open to the player on roll (empty unless they have rolled)."""
        if self.phase != "move" or self.dice is None:
            return []
        if self._plays is None:
            object.__setattr__(self, "_plays", tuple(self.position.legal_plays(*self.dice)))
        assert self._plays is not None
        return list(self._plays)

    def can_double(self, player: int) -> bool:
        """True when ``player`` may offer the cube right now."""
        return self._double_refusal(player) is None

    def pip_counts(self) -> Score:
        """(player 0, player 1) pip counts."""
        mine, theirs = self.position.pip_counts()
        return (mine, theirs) if self.on_roll == 0 else (theirs, mine)

    def position_id(self) -> str:
        return self.position.position_id()

    def match_id(self) -> str:
        """GNU Backgammon's Match ID for this state (``position_id:match_id`` loads in gnubg)."""
        game_state = GAME_PLAYING
        turn = self.on_roll if self.turn is None else self.turn
        resigned = self.resignation if self.phase == "resigned" else 0
        if self.phase == "over":
            last = self.games[-1]
            game_state = {"play": GAME_OVER, "drop": GAME_DROPPED,
                          "resignation": GAME_RESIGNED}[last.by]
            turn = 1 - self.on_roll if last.by == "drop" else self.on_roll
            if last.by == "resignation":
                resigned = RESIGN_LEVELS[last.result]
        return encode_match_id(MatchIdFields(
            cube=self.cube_value, cube_owner=self.cube_owner, on_roll=self.on_roll,
            crawford=self.crawford, game_state=game_state, turn=turn,
            doubled=self.phase == "doubled", resigned=resigned, dice=self.dice or (0, 0),
            length=self.length, score=self.score, jacoby=self.options.jacoby))

    def gnubg_id(self) -> str:
        """``PositionID:MatchID``, what gnubg's ``set gnubgid`` reads."""
        return f"{self.position_id()}:{self.match_id()}"

    def to_mat(self, names: Sequence[str] = ("Player 1", "Player 2"), *,
               event: str | None = None, site: str | None = None,
               date: tuple[int, int, int] | None = None) -> str:
        """The match as a Jellyfish ``.mat`` text in the layout gnubg's ``export match mat``
        writes (player 0 first). See :mod:`bot.engine.mat`."""
        from bot.engine.mat import format_mat

        return format_mat(self, names, event=event, site=site, date=date)

    # -- actions ------------------------------------------------------------------------------

    def apply(self, action: Action) -> Match:
        """Carry out a recorded :class:`Action`."""
        kind = action.kind
        if kind == "move":
            if action.play is None:
                raise ValueError("a move action needs its play")
            return self.move(action.player, action.play)
        if kind == "resign":
            if action.level is None:
                raise ValueError("a resign action needs its level")
            return self.resign(action.player, action.level)
        if kind not in _ACTIONS:
            raise ValueError(f"unknown action {kind!r}")
        method = getattr(self, _ACTIONS[kind])
        result: Match = method(action.player)
        return result

    def roll(self, player: int) -> Match:
        """``player`` rolls the dice (instead of doubling)."""
        self._check_player(player)
        if self.phase == "roll" and player == self.on_roll:
            draft = self._draft(Action("roll", player))
            draft.roll()
            return draft.freeze()
        if self.phase == "move" and player == self.on_roll:
            raise IllegalActionError(f"you have already rolled {_dice_text(self.dice)}: "
                                     "now move")
        raise self._not_now(player, "roll")

    def move(self, player: int, text: str) -> Match:
        """``player`` makes the play ``text`` (gnubg or FIBS notation) with the dice rolled.

        Raises the engine's ``MoveError`` subclasses for plays that can't be read, are illegal
        or ambiguous.
        """
        self._check_player(player)
        if self.phase == "move" and player == self.on_roll and self.dice is not None:
            play = self.position.parse_play(text, self.dice)
            draft = self._draft(Action("move", player, play=play.notation))
            draft.play(play, forced=False)
            return draft.freeze()
        if self.phase == "roll" and player == self.on_roll:
            raise IllegalActionError("roll the dice before you move")
        raise self._not_now(player, "move")

    def double(self, player: int) -> Match:
        """``player``, on roll and before rolling, offers the cube at twice its value."""
        self._check_player(player)
        refusal = self._double_refusal(player)
        if refusal is not None:
            raise refusal
        draft = self._draft(Action("double", player))
        draft.phase = "doubled"
        draft.record.append(Doubled(player, self.cube_value * 2))
        return draft.freeze()

    def take(self, player: int) -> Match:
        """``player`` accepts the double: they own the cube at twice the value."""
        self._check_answer_to_double(player, "take")
        draft = self._draft(Action("take", player))
        draft.cube_value *= 2
        draft.cube_owner = player
        draft.phase = "roll"
        draft.record.append(Took(player, draft.cube_value))
        return draft.freeze()

    def drop(self, player: int) -> Match:
        """``player`` refuses the double: the doubler scores the cube's value before it."""
        self._check_answer_to_double(player, "drop")
        draft = self._draft(Action("drop", player))
        draft.record.append(Dropped(player, self.cube_value * 2))
        draft.end_game(1 - player, 1, "drop")
        return draft.freeze()

    def beaver(self, player: int) -> Match:
        """``player`` takes and at once redoubles (money games with beavers only): they keep
        the cube at four times the value, and the doubler rolls."""
        self._check_answer_to_double(player, "beaver")
        if not self.options.beavers:
            raise IllegalActionError("beavers are not allowed in this game"
                                     if self.options.money else
                                     "beavers are only for money games")
        if self.cube_value * 4 > MAX_CUBE:
            raise IllegalActionError(f"the cube can't go above {MAX_CUBE}: take or drop")
        draft = self._draft(Action("beaver", player))
        draft.cube_value *= 4
        draft.cube_owner = player
        draft.phase = "roll"
        draft.record.append(Beavered(player, draft.cube_value))
        return draft.freeze()

    def resign(self, player: int, level: int | str = 1) -> Match:
        """``player``, on their turn, offers to resign a single game, a gammon or a backgammon
        (``level`` 1-3 or ``'single'``/``'gammon'``/``'backgammon'``)."""
        self._check_player(player)
        value = _resign_level(level)
        if self.phase in ("roll", "move") and player == self.on_roll:
            draft = self._draft(Action("resign", player, level=value))
            draft.phase = "resigned"
            draft.resignation = value
            draft.record.append(ResignationOffered(player, value, value * self.cube_value))
            return draft.freeze()
        if self.phase == "resigned" and player == self.on_roll:
            raise IllegalActionError("you have already offered to resign: wait for the answer")
        raise self._not_now(player, "resign")

    def accept_resignation(self, player: int) -> Match:
        """``player`` accepts the opponent's resignation and scores it."""
        self._check_answer_to_resignation(player, "accept")
        draft = self._draft(Action("accept", player))
        level = self.resignation
        draft.record.append(ResignationAccepted(player, level, level * self.cube_value))
        draft.end_game(player, level, "resignation")
        return draft.freeze()

    def reject_resignation(self, player: int) -> Match:
        """``player`` refuses the opponent's resignation: play goes on where it was."""
        self._check_answer_to_resignation(player, "reject")
        draft = self._draft(Action("reject", player))
        draft.record.append(ResignationRejected(player, self.resignation))
        draft.resignation = 0
        draft.phase = "roll" if self.dice is None else "move"
        return draft.freeze()

    # -- checks -------------------------------------------------------------------------------

    def _check_player(self, player: int) -> None:
        if isinstance(player, bool) or player not in (0, 1):
            raise MatchError(f"a player is 0 or 1, not {player!r}")
        if self.phase == "over":
            raise MatchOverError("the match is over")

    def _not_now(self, player: int, verb: str) -> MatchError:
        """Why ``player`` can't ``verb`` now (they are not the one who must act, or must answer
        something first)."""
        if self.phase == "doubled":
            if player == self.turn:
                return IllegalActionError(f"you have been doubled to {self.cube_value * 2}: "
                                          "take or drop first")
            return NotYourTurnError("it is not your turn: your opponent must take or drop "
                                    "your double")
        if self.phase == "resigned":
            if player == self.turn:
                return IllegalActionError(f"your opponent offers to resign "
                                          f"{_level_text(self.resignation)}: accept or reject "
                                          "first")
            return NotYourTurnError("it is not your turn: your opponent must accept or reject "
                                    "your resignation")
        return NotYourTurnError(f"it is not your turn to {verb}")

    def _double_refusal(self, player: int) -> MatchError | None:
        """Why ``player`` may not double now, None if they may. The reasons that hold whoever's
        turn it is (no cube in this game, or none for this player) come before the turn."""
        if isinstance(player, bool) or player not in (0, 1):
            return MatchError(f"a player is 0 or 1, not {player!r}")
        if self.phase == "over":
            return MatchOverError("the match is over")
        if self.length == 1:
            return IllegalActionError("there is no doubling in a 1-point match")
        if self.crawford:
            return IllegalActionError("there is no doubling in the Crawford game")
        if self.phase in ("doubled", "resigned"):
            return self._not_now(player, "double")
        if self.cube_owner is not None and self.cube_owner != player:
            return IllegalActionError("the cube is your opponent's: only they can double now")
        if self.length and self.score[player] + self.cube_value >= self.length:
            return IllegalActionError("the cube is dead: winning this game already wins you the "
                                      "match, so a double can't gain you anything")
        if self.cube_value * 2 > MAX_CUBE:
            return IllegalActionError(f"the cube is already at {self.cube_value}, its limit")
        if player != self.on_roll:
            return NotYourTurnError("it is not your turn to double")
        if self.phase == "move":
            return IllegalActionError("you have already rolled: double before you roll")
        return None

    def _check_answer_to_double(self, player: int, verb: str) -> None:
        self._check_player(player)
        if self.phase != "doubled":
            raise IllegalActionError(f"there is no double to {verb}")
        if player == self.on_roll:
            raise NotYourTurnError(f"you can't {verb} your own double: your opponent answers it")

    def _check_answer_to_resignation(self, player: int, verb: str) -> None:
        self._check_player(player)
        if self.phase != "resigned":
            raise IllegalActionError(f"there is no resignation to {verb}")
        if player == self.on_roll:
            raise NotYourTurnError(f"you can't {verb} your own resignation: your opponent "
                                   "answers it")

    def _draft(self, action: Action) -> _Draft:
        draft = _Draft(self.options, self.dice_source)
        for name in _STATE_FIELDS:
            setattr(draft, name, getattr(self, name))
        draft.actions = [*self.actions, action]
        draft.record = list(self.record)
        draft.events_start = len(self.record)
        return draft


_ACTIONS: Mapping[str, str] = {
    "roll": "roll", "move": "move", "double": "double", "take": "take", "drop": "drop",
    "beaver": "beaver", "resign": "resign", "accept": "accept_resignation",
    "reject": "reject_resignation",
}

_STATE_FIELDS = ("dice_used", "score", "game_number", "crawford", "post_crawford", "position",
                 "on_roll", "phase", "dice", "cube_value", "cube_owner", "resignation",
                 "auto_doubles", "winner", "games")


class _Draft:
    """The mutable working copy an action edits before it is frozen into a new Match."""

    def __init__(self, options: MatchOptions, source: DiceSource) -> None:
        self.options = options
        self.source = source
        self.dice_used = 0
        self.score: Score = (0, 0)
        self.game_number = 0
        self.crawford = False
        self.post_crawford = False
        self.position = Position.initial()
        self.on_roll = 0
        self.phase: Phase = "roll"
        self.dice: Dice | None = None
        self.cube_value = 1
        self.cube_owner: int | None = None
        self.resignation = 0
        self.auto_doubles = 0
        self.winner: int | None = None
        self.games: tuple[GameOver, ...] = ()
        self.actions: list[Action] = []
        self.record: list[Event] = []
        self.events_start = 0
        self.plays: tuple[Play, ...] | None = None

    def freeze(self) -> Match:
        return Match(
            options=self.options, dice_source=self.source, dice_used=self.dice_used,
            score=self.score, game_number=self.game_number, crawford=self.crawford,
            post_crawford=self.post_crawford, position=self.position, on_roll=self.on_roll,
            phase=self.phase, dice=self.dice, cube_value=self.cube_value,
            cube_owner=self.cube_owner, resignation=self.resignation,
            auto_doubles=self.auto_doubles, winner=self.winner, games=self.games,
            actions=tuple(self.actions), record=tuple(self.record),
            events_start=self.events_start, _plays=self.plays)

    def next_die(self) -> int:
        value = self.source.die(self.dice_used)
        self.dice_used += 1
        return value

    def start_game(self) -> None:
        self.game_number += 1
        self.position = Position.initial()
        self.cube_value = 1
        self.cube_owner = None
        self.resignation = 0
        self.auto_doubles = 0
        self.record.append(GameStarted(self.game_number, self.score, self.crawford))
        while True:
            first, second = self.next_die(), self.next_die()
            if first != second:
                break
            turned = (self.auto_doubles < self.options.automatic_doubles
                      and self.cube_value * 2 <= MAX_CUBE)
            if turned:
                self.auto_doubles += 1
                self.cube_value *= 2
            self.record.append(OpeningRoll((first, second), None, self.cube_value, turned))
        winner = 0 if first > second else 1
        self.record.append(OpeningRoll((first, second), winner, self.cube_value))
        self.on_roll = winner
        self.dice = (max(first, second), min(first, second))
        self.after_roll()

    def roll(self) -> None:
        first, second = self.next_die(), self.next_die()
        self.dice = (max(first, second), min(first, second))
        self.record.append(Rolled(self.on_roll, self.dice))
        self.after_roll()

    def after_roll(self) -> None:
        assert self.dice is not None
        plays = tuple(self.position.legal_plays(*self.dice))
        if len(plays) == 1:
            self.play(plays[0], forced=True)
        else:
            self.phase = "move"
            self.plays = plays

    def play(self, play: Play, *, forced: bool) -> None:
        assert self.dice is not None
        notation = play.notation if play.steps else NO_LEGAL_MOVE
        self.record.append(Moved(self.on_roll, self.dice, notation, play.steps, play.hits,
                                 forced))
        self.plays = None
        after = play.result
        if after.is_game_over():
            loser = after.mover  # the loser's side, from their own point of view
            if sum(loser) < 15:
                level = 1
            elif any(loser[18:25]):
                level = 3
            else:
                level = 2
            self.position = after
            self.on_roll = 1 - self.on_roll
            self.dice = None
            self.end_game(1 - self.on_roll, level, "play")
            return
        self.position = after
        self.on_roll = 1 - self.on_roll
        self.dice = None
        self.phase = "roll"

    def end_game(self, winner: int, level: int,
                 by: Literal["play", "drop", "resignation"]) -> None:
        options = self.options
        jacoby = (by == "play" and level > 1 and options.money and options.jacoby
                  and self.cube_owner is None)
        points = (1 if jacoby else level) * self.cube_value
        score = list(self.score)
        score[winner] += points
        self.score = (score[0], score[1])
        result: Literal["single", "gammon", "backgammon"] = (
            "single" if level == 1 else "gammon" if level == 2 else "backgammon")
        over = GameOver(self.game_number, winner, points, result, by, self.cube_value,
                        self.score, jacoby)
        self.record.append(over)
        self.games = (*self.games, over)
        self.plays = None
        self.resignation = 0
        if options.money or self.score[winner] >= options.length:
            self.winner = winner
            self.phase = "over"
            self.record.append(MatchOver(winner, self.score))
            return
        if options.crawford:
            self.post_crawford = self.post_crawford or self.crawford
            self.crawford = not self.post_crawford and self.score[winner] == options.length - 1
        self.dice = None
        self.start_game()


def _resign_level(level: int | str) -> int:
    if isinstance(level, str):
        value = RESIGN_LEVELS.get(level.strip().lower())
        if value is None:
            raise IllegalActionError("resign a single game, a gammon or a backgammon")
        return value
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 3:
        raise IllegalActionError("resign a single game (1), a gammon (2) or a backgammon (3)")
    return level


def _level_text(level: int) -> str:
    return ("a single game", "a gammon", "a backgammon")[level - 1]


def _dice_text(dice: Dice | None) -> str:
    return "" if dice is None else f"{dice[0]}-{dice[1]}"
