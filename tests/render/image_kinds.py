"""Every kind of image the bot draws, in a language given: boards in each phase (and a review's
board with its arrows' legend), analysis charts, brackets, standings, a crosstable and a report
chart, each as the picture and the labels drawn on it. For the tests that check the images
read in every language (tests/render/test_image_languages.py) and that no English word is drawn
in another (tests/i18n/test_image_words.py).

The names here (:data:`NAMES`) are no English words, so that a check for English words can
leave them out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from bot.i18n import images as say
from bot.i18n.core import Language
from bot.render import Arrow, BoardState, LastPlay, arrows_of
from bot.render.bracket import render_bracket
from bot.render.chart import Point, chart_labels, render_chart
from bot.render.labels import Label
from bot.render.standings import render_round_robin_grid, render_standings
from bot.render.tournament import ReportRow, render_report_chart
from bot.render.whole import board_labels, render_image
from bot.rules import Position
from bot.rules.tournaments.model import Entrant, Pairing, Result, Standing
from tests.render.readable import decode

PLAYERS = ("alice", "bob")
ENTRANTS = ("Ana", "Björn", "Chen", "Dara", "Emre", "Fotis", "Gül", "Hana")
TITLE = "Zürich 2026"
NAMES = (*PLAYERS, *ENTRANTS, TITLE)


@dataclass(frozen=True)
class Drawn:
    """One image: what it shows (``kind``), its pixels and every text drawn on it."""

    kind: str
    image: Image.Image
    labels: tuple[Label, ...]


def _middle() -> tuple[Position, LastPlay]:
    before = Position.from_points(
        {6: 6, 8: 2, 13: 3, 24: 1, 20: 1, 4: 2}, {6: 5, 7: 2, 8: 2, 13: 4, 15: 1, 25: 1}
    )
    play = before.parse_play("20/10*", (6, 4))
    return before.play(play), LastPlay(0, play)


def board_states(players: tuple[str, str] = PLAYERS) -> list[tuple[str, BoardState]]:
    """A board in every phase and every wording of its status line and strips."""
    after, last = _middle()
    race = Position.from_points({3: 2, 1: 1}, {6: 2, 2: 3})
    gone = Position.from_points({}, {6: 2, 2: 3})
    return [
        ("to roll", BoardState(Position.initial(), 0, players, match_length=7)),
        (
            "to move, Crawford, clock",
            BoardState(
                after,
                1,
                players,
                match_length=11,
                score=(9, 10),
                crawford=True,
                dice=(3, 1),
                phase="move",
                last_play=last,
                clock=(600.0, 581.0),
                clock_running=1,
                clock_delay=12.0,
            ),
        ),
        ("to move, money", BoardState(after, 1, players, dice=(5, 5), phase="move")),
        ("doubled", BoardState(after, 0, players, match_length=5, cube_value=2, phase="doubled")),
        (
            "doubled, beavers",
            BoardState(after, 0, players, cube_owner=1, phase="doubled", beavers=True),
        ),
        ("resigned", BoardState(race, 1, players, phase="resigned", resignation=2, cube_value=2)),
        ("resigned, unsaid", BoardState(race, 1, players, phase="resigned")),
        (
            "over: a gammon and the match",
            BoardState(
                gone, 0, players, 5, (5, 2), phase="over", winner=0, result="gammon", points=2
            ),
        ),
        (
            "over: the match",
            BoardState(gone, 0, players, 5, (5, 4), phase="over", winner=0, result="single"),
        ),
        (
            "over: a backgammon for points",
            BoardState(
                gone, 0, players, 0, (6, 0), phase="over", winner=0, result="backgammon", points=6
            ),
        ),
        (
            "over: points",
            BoardState(gone, 0, players, 0, (2, 0), phase="over", winner=0, points=2),
        ),
        ("over", BoardState(gone, 0, players, 0, (1, 0), phase="over", winner=0)),
    ]


def boards(language: Language, players: tuple[str, str] = PLAYERS) -> list[Drawn]:
    """Each of :func:`board_states` seen by player 0, and review boards with each kind of arrow
    (the legend keys two: the played and best, or the best and another)."""
    drawn = [_board(f"board {name}", state, (), language) for name, state in board_states(players)]
    start = BoardState(Position.initial(), 1, players, match_length=5, dice=(6, 5), phase="move")
    played, best = arrows_of("24/18 13/8", "played"), arrows_of("13/7 13/8", "best")
    drawn.append(_board("board reviewed", start, played + best, language))
    other = arrows_of("24/13", "candidate")
    drawn.append(_board("board reviewed, another play", start, best + other, language))
    return drawn


def _board(kind: str, state: BoardState, arrows: tuple[Arrow, ...], language: Language) -> Drawn:
    image = render_image(state, viewer=0, arrows=arrows, language=language)
    labels = board_labels(state, viewer=0, arrows=arrows, language=language)
    # a point number drawn again in a pill of the last play replaces the frame's
    later = {(label.text, label.box) for label in labels[24:]}
    shown = [label for label in labels[:24] if (label.text, label.box) not in later]
    return Drawn(kind, image, (*shown, *labels[24:]))


def charts(language: Language) -> list[Drawn]:
    """A match's chart with every mark (and narrow: its key shorter), a money game's without
    players' marks (its blunders alone), and one with nothing to chart."""
    marks = [None, "doubtful", "error", "blunder"]
    cubes = [None, "double", "take", None, "pass", "no double"]
    match = [
        Point(game, 0.5 + 0.04 * ((move * 7) % 9 - 4), player=move % 2, error=marks[move % 4],
              cube=cubes[move % 6])
        for game in (1, 2, 3)
        for move in range(12)
    ]  # fmt: skip
    money = [Point(1, 0.5 + 0.03 * move, blunder=move == 3) for move in range(8)]
    return [
        _chart("chart match", match, 7, 1, language),
        _chart("chart narrow", match, 7, None, language, width=640),
        _chart("chart money", money, 0, None, language),
        _chart("chart empty", [], 3, None, language),
    ]


def _chart(
    kind: str,
    points: list[Point],
    length: int,
    winner: int | None,
    language: Language,
    width: int = 1000,
) -> Drawn:
    options = {
        "length": length,
        "plies": 2,
        "winner": winner,
        "language": language,
        "width": width,
    }
    png = render_chart(points, PLAYERS, **options)  # type: ignore[arg-type]
    labels = chart_labels(points, PLAYERS, **options)  # type: ignore[arg-type]
    return Drawn(kind, decode(png), labels)


def _sunk(kind: str, render: Callable[..., bytes], language: Language) -> Drawn:
    labels: list[Label] = []
    png = render(labels=labels, language=language)
    return Drawn(kind, decode(png), tuple(labels))


def _entrants(count: int) -> list[Entrant]:
    return [
        Entrant(player, f"{ENTRANTS[(player - 1) % 8]}", player) for player in range(1, count + 1)
    ]


def tournaments(language: Language) -> list[Drawn]:
    """A bracket in play (with a bye), one waiting for its draw, one with its first rounds
    hidden, one won; standings with byes and a withdrawal, and none; a crosstable; a report
    chart with players analysed, not analysed and too short to rate, and one without players."""
    eight = [Pairing(1, 1, 1, 8), Pairing(1, 2, 4, 5), Pairing(1, 3, 2, 7), Pairing(1, 4, 3, None)]
    played = [Result(1, 1, 1, 8, 1, 7, 3), Result(1, 2, 4, 5, 5, 0, 0)]
    sixteen = [Pairing(1, table, 2 * table - 1, 2 * table) for table in range(1, 9)]
    sixteen_done = [Result(1, t, 2 * t - 1, 2 * t, 2 * t - 1, 5, 1) for t in range(1, 9)]
    sixteen += [Pairing(2, t, 4 * t - 3, 4 * t - 1) for t in range(1, 5)]
    sixteen_done += [Result(2, t, 4 * t - 3, 4 * t - 1, 4 * t - 3, 5, 2) for t in range(1, 5)]
    final = [Pairing(1, 1, 1, 2)]
    standings = [
        Standing(1, 1, "Ana", 3, 3, 0, 1, 4, 5, 9),
        Standing(2, 2, "Björn", 3, 2, 1, 2, 4, 3, 2),
        Standing(3, 3, "Chen", 4, 2, 2, 0, 2, 4, -1),
        Standing(4, 4, "Dara", 2, 0, 2, 0, 0, 6, -10, withdrawn=True),
    ]
    grid = [Result(1, 1, 1, 2, 1, 5, 3), Result(1, 2, 3, 4, 4, 0, 0), Result(2, 1, 1, 3, 3, 2, 5)]
    rows = [
        ReportRow("Ana", 4.2, 3.1, 0.35, 3, 1),
        ReportRow("Björn", None, None, None, 2, 2),
        ReportRow("Chen", None, None, None, 1, 3, unrated=say.TOO_SHORT(language)),
    ]
    return [
        _sunk(
            "bracket in play",
            lambda **k: render_bracket(
                title=TITLE, entrants=_entrants(7), pairings=eight, results=played,
                rounds_total=3, **k,
            ),
            language,
        ),
        _sunk(
            "bracket waiting",
            lambda **k: render_bracket(
                title=TITLE, entrants=_entrants(4), pairings=[], results=[], rounds_total=2, **k
            ),
            language,
        ),
        _sunk(
            "bracket windowed",
            lambda **k: render_bracket(
                title=TITLE, entrants=_entrants(16), pairings=sixteen, results=sixteen_done,
                rounds_total=5, max_rounds=2, **k,
            ),
            language,
        ),
        _sunk(
            "bracket won",
            lambda **k: render_bracket(
                title=TITLE, entrants=_entrants(2), pairings=final,
                results=[Result(1, 1, 1, 2, 2, 1, 3)], rounds_total=1, **k,
            ),
            language,
        ),
        _sunk(
            "standings",
            lambda **k: render_standings(title=TITLE, subtitle="", standings=standings, **k),
            language,
        ),
        _sunk(
            "standings empty",
            lambda **k: render_standings(title=TITLE, subtitle="", standings=[], **k),
            language,
        ),
        _sunk(
            "crosstable",
            lambda **k: render_round_robin_grid(
                title=TITLE, entrants=_entrants(4), results=grid, **k
            ),
            language,
        ),
        _sunk("report", lambda **k: render_report_chart(title=TITLE, rows=rows, **k), language),
        _sunk("report empty", lambda **k: render_report_chart(title=TITLE, rows=[], **k), language),
    ]  # fmt: skip


def every_image(language: Language) -> list[Drawn]:
    return [*boards(language), *charts(language), *tournaments(language)]
