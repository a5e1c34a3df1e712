"""A match (or a money game) between two players: the cube, scoring, Crawford and resignations,
and the checks behind each action (why a match refuses it now).

A :class:`Match` is an immutable value. Every action is a method that names the acting player
(0 or 1), checks that the action is theirs to take now, and returns a new ``Match``; a refused
action raises a :class:`MatchError` (a ``ValueError``) with a short message for the player, and
the old value is untouched. What an action set off is in the new match's :attr:`Match.events`
(:mod:`bot.rules.events`; the caller words them), and everything since the start is in
:attr:`Match.record`. Things that need nobody's decision happen by themselves: the opening roll,
a forced play or a roll with no legal play, scoring a finished game and starting the next one.

The dice come from a :class:`~bot.rules.dice.DiceSource`, a pure function of the die number, so
the player's actions (:attr:`Match.actions`) and the source rebuild the match exactly:
:meth:`Match.replay`, :meth:`Match.to_data` and :meth:`Match.from_data`. A
:meth:`Match.snapshot` holds the state alone in a few hundred bytes, whatever the match's
length; :meth:`Match.from_snapshot` plays on from it exactly as the replayed match would.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import rules as say
from bot.i18n.words import level_said
from bot.rules.dice import Dice, DiceSource, VerifiableDice, dice_from_data
from bot.rules.errors import (
    IllegalActionError,
    MatchError,
    MatchOverError,
    NotYourTurnError,
    PartialRecordError,
)
from bot.rules.events import (
    Action,
    ActionKind,
    Beavered,
    Doubled,
    Dropped,
    Event,
    GameOver,
    GameStarted,
    MatchOver,
    Moved,
    OpeningRoll,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    Score,
    Took,
)
from bot.rules.mat import format_mat
from bot.rules.matchid import (
    GAME_DROPPED,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    MatchIdFields,
    encode_match_id,
)
from bot.rules.notation import dice_text
from bot.rules.position import Play
from bot.rules.state import (
    DEFAULT_AUTOMATIC_DOUBLES,
    MAX_AUTOMATIC_DOUBLES,
    MAX_CUBE,
    MAX_LENGTH,
    Draft,
    MatchOptions,
    MatchOptionsError,
    MatchState,
    Phase,
    compacted,
    evolved,
    match_from_snapshot,
    snapshot_of,
)


# Why a match refuses an action now: the checks behind :class:`~bot.rules.match.Match`'s
# actions and the short :class:`~bot.rules.errors.MatchError` each refusal raises.
def require_full_record(match: MatchState, purpose: str) -> None:
    if not match.has_full_record:
        raise PartialRecordError(
            f"{purpose} needs the whole record, and this match was "
            "restored from a snapshot: replay its actions instead"
        )


def check_player(match: MatchState, player: int) -> None:
    if isinstance(player, bool) or player not in (0, 1):
        raise MatchError(f"a player is 0 or 1, not {player!r}")  # a caller's bug
    if match.phase == "over":
        raise MatchOverError(say.MATCH_OVER.said())


def not_now(match: MatchState, player: int, verb: str) -> MatchError:
    """Why ``player`` can't ``verb`` now (they are not the one who must act, or must answer
    something first)."""
    if match.phase == "doubled":
        if player == match.turn:
            return IllegalActionError(say.DOUBLED_ANSWER_FIRST.said(cube=match.cube_value * 2))
        return NotYourTurnError(say.WAIT_DOUBLE_ANSWER.said())
    if match.phase == "resigned":
        if player == match.turn:
            return IllegalActionError(
                say.RESIGNATION_ANSWER_FIRST.said(level=level_said(match.resignation))
            )
        return NotYourTurnError(say.WAIT_RESIGNATION_ANSWER.said())
    return NotYourTurnError(say.NOT_YOUR_TURN_TO[verb].said())


def double_refusal(match: MatchState, player: int) -> MatchError | None:
    """Why ``player`` may not double now, None if they may. The reasons that hold whoever's
    turn it is (no cube in this game, or none for this player) come before the turn."""
    if isinstance(player, bool) or player not in (0, 1):
        return MatchError(f"a player is 0 or 1, not {player!r}")  # a caller's bug
    if match.phase == "over":
        return MatchOverError(say.MATCH_OVER.said())
    if match.length == 1:
        return IllegalActionError(say.NO_DOUBLING_ONE_POINT.said())
    if match.crawford:
        return IllegalActionError(say.NO_DOUBLING_CRAWFORD.said())
    if match.phase in ("doubled", "resigned"):
        return not_now(match, player, "double")
    if match.cube_owner is not None and match.cube_owner != player:
        return IllegalActionError(say.CUBE_OPPONENTS.said())
    if match.length and match.score[player] + match.cube_value >= match.length:
        return IllegalActionError(say.CUBE_DEAD.said())
    if match.cube_value * 2 > MAX_CUBE:
        return IllegalActionError(say.CUBE_AT_LIMIT.said(cube=match.cube_value))
    if player != match.on_roll:
        return NotYourTurnError(say.NOT_YOUR_TURN_TO["double"].said())
    if match.phase == "move":
        return IllegalActionError(say.DOUBLE_BEFORE_ROLL.said())
    return None


def check_answer_to_double(match: MatchState, player: int, verb: str) -> None:
    check_player(match, player)
    if match.phase != "doubled":
        raise IllegalActionError(say.NO_DOUBLE_TO[verb].said())
    if player == match.on_roll:
        raise NotYourTurnError(say.OWN_DOUBLE[verb].said())


def check_answer_to_resignation(match: MatchState, player: int, verb: str) -> None:
    check_player(match, player)
    if match.phase != "resigned":
        raise IllegalActionError(say.NO_RESIGNATION_TO[verb].said())
    if player == match.on_roll:
        raise NotYourTurnError(say.OWN_RESIGNATION[verb].said())


__all__ = [  # what used to be defined here is still found here
    "DEFAULT_AUTOMATIC_DOUBLES",
    "FORMAT_VERSION",
    "MAX_AUTOMATIC_DOUBLES",
    "MAX_CUBE",
    "MAX_LENGTH",
    "RESIGN_LEVELS",
    "Action",
    "ActionKind",
    "Beavered",
    "Dice",
    "Doubled",
    "Dropped",
    "Event",
    "GameOver",
    "GameStarted",
    "IllegalActionError",
    "Match",
    "MatchError",
    "MatchOptions",
    "MatchOptionsError",
    "MatchOver",
    "MatchOverError",
    "Moved",
    "NotYourTurnError",
    "OpeningRoll",
    "Phase",
    "ResignationAccepted",
    "ResignationOffered",
    "ResignationRejected",
    "Rolled",
    "Score",
    "Took",
]

RESIGN_LEVELS: Mapping[str, int] = {"single": 1, "gammon": 2, "backgammon": 3}
FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class Match(MatchState):
    """The whole state of a match (its fields: :class:`~bot.rules.state.MatchState`). Build one
    with :meth:`start`; act with the action methods."""

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        length: int = 0,
        *,
        crawford: bool = True,
        jacoby: bool = False,
        beavers: bool = False,
        automatic_doubles: int | bool = 0,
        dice: DiceSource | None = None,
    ) -> Match:
        """A new match to ``length`` points (0 = a money game), its opening roll made.

        ``dice`` defaults to a fresh :class:`VerifiableDice` (a secret ``secrets`` seed).
        """
        options = MatchOptions(
            length=length,
            crawford=crawford,
            jacoby=jacoby,
            beavers=beavers,
            automatic_doubles=automatic_doubles,
        )
        return cls.with_options(options, dice=dice)

    @classmethod
    def with_options(cls, options: MatchOptions, *, dice: DiceSource | None = None) -> Match:
        source: DiceSource = VerifiableDice.generate() if dice is None else dice
        draft = Draft(cls(options, source), ())
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
        require_full_record(self, "its data for storage")
        return {
            "format": FORMAT_VERSION,
            "options": self.options.to_data(),
            "dice": self.dice_source.to_data(),
            "actions": [action.to_data() for action in self.actions],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any], *, dice_key: bytes | None = None) -> Match:
        """The match :meth:`to_data` described; ``dice_key`` for dice made with the server's
        key (:class:`~bot.rules.dice.KeyedDice`)."""
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"unknown match data format {data.get('format')!r}")
        dice = dice_from_data(data["dice"], key=dice_key)
        return cls.replay(
            MatchOptions.from_data(data["options"]),
            dice,
            (Action.from_data(item) for item in data["actions"]),
        )

    def snapshot(self) -> dict[str, Any]:
        """The state as plain JSON-able data of a few hundred bytes, whatever the length of the
        match (no secret: the dice are given apart). See :mod:`bot.rules.state`."""
        return snapshot_of(self)

    @classmethod
    def from_snapshot(cls, data: Mapping[str, Any], dice: DiceSource) -> Match:
        """The match :meth:`snapshot` described, with the dice it was played with: it plays on
        exactly like the replayed match, but holds only the history the snapshot keeps
        (``has_full_record`` is False). Raises :class:`~bot.rules.errors.SnapshotError`."""
        return match_from_snapshot(cls, data, dice)

    def compacted(self) -> Match:
        """``Match.from_snapshot(self.snapshot(), self.dice_source)``, made directly (a tenth of
        the time) and keeping the legal plays already found."""
        return compacted(self)

    # -- facts --------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def events(self) -> tuple[Event, ...]:
        """What the last action set off, in order."""
        return self.record[self.events_start :]

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
        return double_refusal(self, player) is None

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
            game_state = {"play": GAME_OVER, "drop": GAME_DROPPED, "resignation": GAME_RESIGNED}[
                last.by
            ]
            turn = 1 - self.on_roll if last.by == "drop" else self.on_roll
            if last.by == "resignation":
                resigned = RESIGN_LEVELS[last.result]
        return encode_match_id(
            MatchIdFields(
                cube=self.cube_value,
                cube_owner=self.cube_owner,
                on_roll=self.on_roll,
                crawford=self.crawford,
                game_state=game_state,
                turn=turn,
                doubled=self.phase == "doubled",
                resigned=resigned,
                dice=self.dice or (0, 0),
                length=self.length,
                score=self.score,
                jacoby=self.options.jacoby,
            )
        )

    def gnubg_id(self) -> str:
        """``PositionID:MatchID``, what gnubg's ``set gnubgid`` reads."""
        return f"{self.position_id()}:{self.match_id()}"

    def to_mat(
        self,
        names: Sequence[str] = ("Player 1", "Player 2"),
        *,
        event: str | None = None,
        site: str | None = None,
        date: tuple[int, int, int] | None = None,
    ) -> str:
        """The match as a Jellyfish ``.mat`` text in the layout gnubg's ``export match mat``
        writes (player 0 first). See :mod:`bot.rules.mat`."""
        require_full_record(self, "a .mat record")
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
        check_player(self, player)
        if self.phase == "roll" and player == self.on_roll:
            draft = self._draft(Action("roll", player))
            draft.roll()
            return draft.freeze()
        if self.phase == "move" and player == self.on_roll and self.dice is not None:
            raise IllegalActionError(say.ALREADY_ROLLED.said(dice=dice_text(self.dice)))
        raise not_now(self, player, "roll")

    def move(self, player: int, text: str) -> Match:
        """``player`` makes the play ``text`` (gnubg or FIBS notation) with the dice rolled.

        Raises the rules' ``MoveError`` subclasses for plays that can't be read, are illegal
        or ambiguous.
        """
        check_player(self, player)
        if self.phase == "move" and player == self.on_roll and self.dice is not None:
            play = self.position.parse_play(text, self.dice, self.legal_plays())
            draft = self._draft(Action("move", player, play=play.notation))
            draft.play(play, forced=False)
            return draft.freeze()
        if self.phase == "roll" and player == self.on_roll:
            raise IllegalActionError(say.ROLL_BEFORE_MOVE.said())
        raise not_now(self, player, "move")

    def double(self, player: int) -> Match:
        """``player``, on roll and before rolling, offers the cube at twice its value."""
        check_player(self, player)
        refusal = double_refusal(self, player)
        if refusal is not None:
            raise refusal
        draft = self._draft(Action("double", player), evolved(self, phase="doubled"))
        draft.record.append(Doubled(player, self.cube_value * 2))
        return draft.freeze()

    def take(self, player: int) -> Match:
        """``player`` accepts the double: they own the cube at twice the value."""
        check_answer_to_double(self, player, "take")
        cube = self.cube_value * 2
        draft = self._draft(
            Action("take", player), evolved(self, cube_value=cube, cube_owner=player, phase="roll")
        )
        draft.record.append(Took(player, cube))
        return draft.freeze()

    def drop(self, player: int) -> Match:
        """``player`` refuses the double: the doubler scores the cube's value before it."""
        check_answer_to_double(self, player, "drop")
        draft = self._draft(Action("drop", player))
        draft.record.append(Dropped(player, self.cube_value * 2))
        draft.end_game(1 - player, 1, "drop")
        return draft.freeze()

    def beaver(self, player: int) -> Match:
        """``player`` takes and at once redoubles (money games with beavers only): they keep
        the cube at four times the value, and the doubler rolls."""
        check_answer_to_double(self, player, "beaver")
        if not self.options.beavers:
            raise IllegalActionError(
                say.BEAVERS_NOT_HERE.said() if self.options.money else say.BEAVERS_MONEY_ONLY.said()
            )
        if self.cube_value * 4 > MAX_CUBE:
            raise IllegalActionError(say.CUBE_ABOVE.said(most=MAX_CUBE))
        cube = self.cube_value * 4
        draft = self._draft(
            Action("beaver", player),
            evolved(self, cube_value=cube, cube_owner=player, phase="roll"),
        )
        draft.record.append(Beavered(player, cube))
        return draft.freeze()

    def resign(self, player: int, level: int | str = 1) -> Match:
        """``player``, on their turn, offers to resign a single game, a gammon or a backgammon
        (``level`` 1-3 or ``'single'``/``'gammon'``/``'backgammon'``)."""
        check_player(self, player)
        value = _resign_level(level)
        if self.phase in ("roll", "move") and player == self.on_roll:
            draft = self._draft(
                Action("resign", player, level=value),
                evolved(self, phase="resigned", resignation=value),
            )
            draft.record.append(ResignationOffered(player, value, value * self.cube_value))
            return draft.freeze()
        if self.phase == "resigned" and player == self.on_roll:
            raise IllegalActionError(say.ALREADY_RESIGNED.said())
        raise not_now(self, player, "resign")

    def accept_resignation(self, player: int) -> Match:
        """``player`` accepts the opponent's resignation and scores it."""
        check_answer_to_resignation(self, player, "accept")
        draft = self._draft(Action("accept", player))
        level = self.resignation
        draft.record.append(ResignationAccepted(player, level, level * self.cube_value))
        draft.end_game(player, level, "resignation")
        return draft.freeze()

    def reject_resignation(self, player: int) -> Match:
        """``player`` refuses the opponent's resignation: play goes on where it was."""
        check_answer_to_resignation(self, player, "reject")
        draft = self._draft(
            Action("reject", player),
            evolved(self, resignation=0, phase="roll" if self.dice is None else "move"),
        )
        draft.record.append(ResignationRejected(player, self.resignation))
        return draft.freeze()

    def _draft(self, action: Action, now: Match | None = None) -> Draft[Match]:
        """A draft of the match after ``action``, which made it ``now`` (else as it is)."""
        return Draft(self if now is None else now, (*self.actions, action))


_ACTIONS: Mapping[str, str] = {
    "roll": "roll",
    "move": "move",
    "double": "double",
    "take": "take",
    "drop": "drop",
    "beaver": "beaver",
    "resign": "resign",
    "accept": "accept_resignation",
    "reject": "reject_resignation",
}


def _resign_level(level: int | str) -> int:
    if isinstance(level, str):
        value = RESIGN_LEVELS.get(level.strip().lower())
        if value is None:
            raise IllegalActionError(say.RESIGN_WHAT.said())
        return value
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 3:
        raise IllegalActionError(say.RESIGN_LEVEL.said())
    return level


AUTO_STEPS = 500  # a guard: automatic rolls never loop forever


def advance(match: Match, events: list[Event]) -> Match:
    """Roll for a player who has no choice but to roll (no cube to turn); the rolls' events
    are added to ``events``."""
    for _ in range(AUTO_STEPS):
        if match.phase != "roll" or match.can_double(match.on_roll):
            break
        match = match.roll(match.on_roll)
        events.extend(match.events)
    return match
