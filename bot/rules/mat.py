"""Jellyfish ``.mat`` match files, in the layout GNU Backgammon's ``export match mat`` writes.

A port of gnubg's ``ExportGameJF``: two columns (player 0 left, player 1 right), each entry a
roll and the play written die by die from the mover's side (25 = bar, 0 = off, ``*`` the first
time a point with an opposing blot is reached), or a cube action; ``Wins N point(s)`` ends a game.
Some of gnubg's quirks are kept on purpose so that gnubg reads the file the way it reads its own:
a take that follows a beaver is not written, and a roll made just before an accepted resignation
is written without a play. One is not: when player 1 resigns right after winning the opening roll,
gnubg would write the roll in player 0's column (and then misread it); it goes in player 1's.

The rules go into ``;`` header lines: a money game's ``[Jacoby "On"]`` and ``[Beaver "Off"]``
(the tags eXtreme Gammon writes; gnubg's import recognises and ignores them, and scores a money
game under its own ``set jacoby`` setting), ``Automatic doubles: ...``, and a match's
``[Crawford "Off"]`` when it was played without the Crawford rule (gnubg assumes it).

Where the file can't say everything: it has no way to record an automatic double (gnubg's import
starts every game with the cube at 1), so a game that had one imports with a smaller cube and score;
a header line says so, with the points gnubg will give (:func:`gnubg_points`). The ``Doubles =>``
values and ``Wins`` lines still show the real cube and points. ``Wins`` after a game played out
shows the points actually scored (so a gammon that the Jacoby rule counted single shows one cube's
worth).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.events import (
    Beavered,
    Doubled,
    Dropped,
    Event,
    GameOver,
    GameStarted,
    Moved,
    OpeningRoll,
    ResignationAccepted,
    Rolled,
    Took,
)
from bot.rules.state import MatchState
from bot.rules.text import plural

NAME_LIMIT = 24  # keeps "name : score" inside gnubg's 31-character column
_LEFT = " " * 34


def _points(points: int) -> str:
    """``1 point``, ``2 points`` as gnubg writes and reads them in a .mat file: English in every
    language of the bot (a file format, not a reply)."""
    return plural(points, "point")


@dataclass(slots=True)
class _Record:
    """One of gnubg's move records, as ``ExportGameJF`` sees it."""

    type: str  # normal, double, take, beaver, drop, setdice, resign
    player: int
    text: str = ""
    points: int = 0  # drop: points won; resign: points; normal: points if it ended the game


def clean_name(name: str, default: str) -> str:
    """A player name a .mat file can hold: one line, no colon, at most 24 characters."""
    text = re.sub(r"\s+", " ", re.sub(r"[\x00-\x1f\x7f:]", " ", name)).strip()
    return text[:NAME_LIMIT].rstrip() or default


def _clean_header(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r'[\x00-\x1f\x7f"]', " ", text)).strip()


def format_play_plain(steps: Sequence[tuple[int, int]], hits: Sequence[int]) -> str:
    """gnubg's ``FormatMovePlain``: single-die moves sorted as its ``CanonicalMoveOrder``,
    numbers only, a space after each of the first three."""
    ordered = sorted(steps, key=lambda step: (-step[0], -step[1]))
    hit_points = set(hits)
    parts = []
    seen: set[int] = set()
    for index, (source, dest) in enumerate(ordered):
        text = f"{source}/{dest}"
        if dest and dest in hit_points and dest not in seen:
            text += "*"
        seen.add(dest)
        if index < 3:
            text += " "
        parts.append(text)
    return "".join(parts)


def gnubg_points(over: GameOver, automatic_doubles: int) -> int:
    """The points GNU Backgammon scores for the game ``over`` when it imports it from a .mat file,
    which can't carry that game's ``automatic_doubles``: gnubg's cube is that many doublings
    smaller. gnubg reads a resignation's level back from its ``Wins N points`` line against its own
    cube, so a resigned game may come out as a bigger resignation at the smaller cube."""
    cube = over.cube >> automatic_doubles
    if over.by != "resignation":
        return over.points >> automatic_doubles
    level = 1 if over.points <= cube else 2 if over.points <= 2 * cube else 3
    return level * cube


def _on_off(flag: bool) -> str:
    return "On" if flag else "Off"


def _rules_header(match: MatchState) -> list[str]:
    """``;`` lines saying the rules gnubg can't tell from the rest of the file."""
    options = match.options
    if not options.money:
        return [] if options.crawford else ['; [Crawford "Off"]\n']
    auto = options.automatic_doubles
    return [
        f'; [Jacoby "{_on_off(options.jacoby)}"]\n',
        f'; [Beaver "{_on_off(options.beavers)}"]\n',
        f"; Automatic doubles: {f'at most {auto} per game' if auto else 'off'}\n",
    ]


def _automatic_double_notes(
    games: Sequence[tuple[GameStarted, list[Event]]], cube_now: int
) -> list[str]:
    """A ``;`` line for each game whose cube tied opening rolls turned (``cube_now`` is the cube
    of the game under way, if the last one is)."""
    notes = []
    for started, events in games:
        turned = [e for e in events if isinstance(e, OpeningRoll) and e.automatic_double]
        if not turned:
            continue
        count = len(turned)
        cube = turned[-1].cube
        what = plural(count, "automatic double")
        over = next((e for e in events if isinstance(e, GameOver)), None)
        if over is None:
            effect = f"with the cube at {cube_now >> count} instead of {cube_now}"
        else:
            effect = f"at {plural(gnubg_points(over, count), 'point')} instead of {over.points}"
        notes.append(
            f"; Game {started.game}: tied opening rolls turned the cube to {cube} "
            f"({what}). GNU Backgammon can't read automatic doubles from a .mat file: "
            f"it imports this game {effect}.\n"
        )
    return notes


def _game_records(events: Sequence[Event]) -> list[_Record]:
    records: list[_Record] = []
    pending: tuple[int, tuple[int, int]] | None = None  # rolled but not yet played
    for event in events:
        if isinstance(event, OpeningRoll):
            if event.winner is not None:
                first, second = event.dice
                pending = (event.winner, (max(first, second), min(first, second)))
        elif isinstance(event, Rolled):
            pending = (event.player, event.dice)
        elif isinstance(event, Moved):
            pending = None
            text = f"{event.dice[0]}{event.dice[1]}: " + format_play_plain(event.steps, event.hits)
            records.append(_Record("normal", event.player, text))
        elif isinstance(event, Doubled):
            records.append(_Record("double", event.player, f" Doubles => {event.cube}"))
        elif isinstance(event, Took):
            records.append(_Record("take", event.player, " Takes"))
        elif isinstance(event, Beavered):
            records.append(_Record("beaver", event.player, f" Beavers => {event.cube}"))
        elif isinstance(event, Dropped):
            records.append(_Record("drop", event.player, points=event.cube // 2))
        elif isinstance(event, ResignationAccepted):
            if pending is not None:
                player, dice = pending
                records.append(_Record("setdice", player, f"{dice[0]}{dice[1]}: "))
                pending = None
            records.append(_Record("resign", 1 - event.player, points=event.points))
        elif isinstance(event, GameOver) and event.by == "play" and records:
            records[-1].points = event.points
    if pending is not None:
        player, dice = pending
        records.append(_Record("setdice", player, f"{dice[0]}{dice[1]}: "))
    return records


def _format_game(
    out: list[str], started: GameStarted, events: Sequence[Event], names: tuple[str, str]
) -> None:
    out.append(f" Game {started.game}\n")
    left = f"{names[0]} : {started.score[0]}"
    out.append(f" {left:<31}{names[1]} : {started.score[1]}\n")
    slot = 0
    dice_rolled = False
    for record in _game_records(events):
        text = record.text
        if record.type == "normal":
            dice_rolled = False
        elif record.type == "setdice":
            dice_rolled = True
        elif record.type == "drop":
            gap = "\n      " if slot & 1 else " " * 23
            text = f" Drops{gap}Wins {_points(record.points)}"
        elif record.type == "resign":
            wins = f"Wins {_points(record.points)}\n"
            odd = bool(slot & 1)
            if record.player == 1:
                text = ("\n" if odd ^ dice_rolled else "") + "      " + wins
            elif odd:
                text = (" " if odd ^ dice_rolled else " " * 24) + wins
            else:
                text = (" " if dice_rolled else _LEFT) + wins
        if slot == 0 and record.type in ("normal", "setdice") and record.player == 1:
            # gnubg indents only a play here; a bare roll (player 1 resigning at once after the
            # opening roll) would land in the left column, where gnubg reads it as player 0's.
            out.append("  1)                             ")
            slot += 1
        if slot & 1 or record.type == "resign":
            out.append(text)
            if record.type != "setdice":
                out.append("\n")
        elif record.type != "setdice":
            out.append(f"{slot // 2 + 1:3d}) {text:<27} ")
        else:
            out.append(f"{slot // 2 + 1:3d}) {text:<3}")
        if record.type == "drop":
            out.append("\n" if slot & 1 else "\n\n")
        if record.type == "normal" and record.points:
            lead = _LEFT if slot & 1 else "\n      "
            out.append(f"{lead}Wins {_points(record.points)}\n\n")
        slot += 1


def format_mat(
    match: MatchState,
    names: Sequence[str] = ("Player 1", "Player 2"),
    *,
    event: str | None = None,
    site: str | None = None,
    date: tuple[int, int, int] | None = None,
) -> str:
    """The match so far as ``.mat`` text; ``names`` are player 0's and player 1's.

    ``event``, ``site`` and ``date`` (year, month, day) go into the ``; [...]`` header lines gnubg
    writes and reads; the rules gnubg can't tell from the moves follow (see the module docstring).
    """
    if len(names) != 2:
        raise ValueError("a match has two player names")
    players = (clean_name(names[0], "Player 1"), clean_name(names[1], "Player 2"))
    if players[0] == players[1]:
        players = (players[0], f"{players[1][: NAME_LIMIT - 2]} 2")
    out: list[str] = []
    if site:
        out.append(f'; [Site "{_clean_header(site)}"]\n')
    if event:
        out.append(f'; [Event "{_clean_header(event)}"]\n')
    if date:
        year, month, day = date
        out.append(f'; [EventDate "{year:4d}.{month:02d}.{day:02d}"]\n')
    games: list[tuple[GameStarted, list[Event]]] = []
    for item in match.record:
        if isinstance(item, GameStarted):
            games.append((item, []))
        elif games:
            games[-1][1].append(item)
    out.extend(_rules_header(match))
    out.extend(_automatic_double_notes(games, match.cube_value))
    out.append("\n")
    out.append(f" {match.options.length} point match\n\n")
    for started, events in games:
        _format_game(out, started, events, players)
    return "".join(out)
