"""An action in progress, and what follows from it by itself: the opening roll, a forced play or
a roll with no legal play, scoring a finished game and starting the next one.

A :class:`Draft` holds the match as the action has made it so far (``now``, a
:class:`~bot.rules.match.Match` edited with :func:`dataclasses.replace`, so the state's fields
are listed only on ``Match``) and the events set off, until :meth:`Draft.freeze` makes the next
``Match``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Generic, Literal, TypeVar

from bot.rules.dice import Dice, DiceSource
from bot.rules.events import (
    Action,
    Event,
    GameOver,
    GameStarted,
    MatchOver,
    Moved,
    OpeningRoll,
    Rolled,
    Score,
)
from bot.rules.notation import NO_LEGAL_MOVE
from bot.rules.options import MAX_CUBE
from bot.rules.position import CHECKERS, Play, Position
from bot.rules.state import MatchState

State = TypeVar("State", bound=MatchState)


class Draft(Generic[State]):
    """The working copy an action edits before it is frozen into a new Match.

    ``now`` is the state so far; its ``actions``, ``record``, ``events_start`` and cached plays
    are the old match's until :meth:`freeze` fills them in from the draft.
    """

    __slots__ = ("actions", "events_start", "now", "plays", "record")

    def __init__(self, now: State, actions: tuple[Action, ...]) -> None:
        self.now = now
        self.actions = actions
        self.record: list[Event] = list(now.record)
        self.events_start = len(now.record)
        self.plays: tuple[Play, ...] | None = None

    def freeze(self) -> State:
        return replace(
            self.now,
            actions=self.actions,
            record=tuple(self.record),
            events_start=self.events_start,
            _plays=self.plays,
        )

    def start_game(self) -> None:
        now = self.now
        game = now.game_number + 1
        self.record.append(GameStarted(game, now.score, now.crawford))
        used, cube, automatic = now.dice_used, 1, 0
        while True:
            first, second = _dice_at(now.dice_source, used)
            used += 2
            if first != second:
                break
            turned = automatic < now.options.automatic_doubles and cube * 2 <= MAX_CUBE
            if turned:
                automatic += 1
                cube *= 2
            self.record.append(OpeningRoll((first, second), None, cube, turned))
        winner = 0 if first > second else 1
        self.record.append(OpeningRoll((first, second), winner, cube))
        self.now = replace(
            now,
            game_number=game,
            position=Position.initial(),
            cube_value=cube,
            cube_owner=None,
            resignation=0,
            auto_doubles=automatic,
            dice_used=used,
            on_roll=winner,
            dice=_ordered(first, second),
            phase="move",
        )
        self.after_roll()

    def roll(self) -> None:
        now = self.now
        dice = _ordered(*_dice_at(now.dice_source, now.dice_used))
        self.record.append(Rolled(now.on_roll, dice))
        self.now = replace(now, dice=dice, dice_used=now.dice_used + 2, phase="move")
        self.after_roll()

    def after_roll(self) -> None:
        """The player on roll has rolled (``now`` is in the ``move`` phase): the only play there
        is plays itself."""
        now = self.now
        assert now.dice is not None
        plays = tuple(now.position.legal_plays(*now.dice))
        if len(plays) == 1:
            self.play(plays[0], forced=True)
        else:
            self.plays = plays

    def play(self, play: Play, *, forced: bool) -> None:
        now = self.now
        assert now.dice is not None
        notation = play.notation if play.steps else NO_LEGAL_MOVE
        self.record.append(Moved(now.on_roll, now.dice, notation, play.steps, play.hits, forced))
        self.plays = None
        after = play.result
        self.now = replace(now, position=after, on_roll=1 - now.on_roll, dice=None, phase="roll")
        if after.is_game_over():
            loser = after.mover  # the loser's side, from their own point of view
            if sum(loser) < CHECKERS:
                level = 1
            elif any(loser[18:25]):
                level = 3
            else:
                level = 2
            self.end_game(now.on_roll, level, "play")

    def end_game(self, winner: int, level: int, by: Literal["play", "drop", "resignation"]) -> None:
        now = self.now
        options = now.options
        jacoby = (
            by == "play"
            and level > 1
            and options.money
            and options.jacoby
            and now.cube_owner is None
        )
        points = (1 if jacoby else level) * now.cube_value
        score: Score = (
            (now.score[0] + points, now.score[1])
            if winner == 0
            else (now.score[0], now.score[1] + points)
        )
        result: Literal["single", "gammon", "backgammon"] = (
            "single" if level == 1 else "gammon" if level == 2 else "backgammon"
        )
        over = GameOver(now.game_number, winner, points, result, by, now.cube_value, score, jacoby)
        self.record.append(over)
        self.plays = None
        games = (*now.games, over)
        if options.money or score[winner] >= options.length:
            self.now = replace(
                now, score=score, games=games, resignation=0, winner=winner, phase="over"
            )
            self.record.append(MatchOver(winner, score))
            return
        crawford, post_crawford = now.crawford, now.post_crawford
        if options.crawford:
            post_crawford = post_crawford or crawford
            crawford = not post_crawford and score[winner] == options.length - 1
        self.now = replace(
            now,
            score=score,
            games=games,
            resignation=0,
            dice=None,
            crawford=crawford,
            post_crawford=post_crawford,
        )
        self.start_game()


def _dice_at(source: DiceSource, index: int) -> tuple[int, int]:
    """Dice ``index`` and ``index + 1`` of ``source``, in the order drawn."""
    return source.die(index), source.die(index + 1)


def _ordered(first: int, second: int) -> Dice:
    """A roll, the higher die first."""
    return max(first, second), min(first, second)
