"""A knockout bracket as PNG bytes. No I/O.

Rounds are columns, left to right; each match is a box with its two players (seed small, the
score at the right once decided). From each player's row a connector runs right: the winner's
carries on into their row of the next round's box in the path colour, the loser's stops short
in grey. Boxes of rounds not yet paired already show whoever has reached them, the champion
stands under the final (in its column, which has room to spare), and the viewer's rows and path
are drawn in the highlight colour.

A bracket of more than ``max_rounds`` rounds (16 players and up, by default) shows a window of
that many rounds starting at the round in play, and says so in the subtitle: the round in play
is what players look for, and more than three columns of names do not fit a phone's width at a
size it can read (:mod:`bot.render.tournament`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from bot.i18n import images as say
from bot.i18n import tournaments as rounds
from bot.i18n.core import ENGLISH, Language
from bot.render import theme
from bot.render.labels import Label
from bot.render.png import encode_png
from bot.render.tournament import (
    BOX,
    DASH,
    MARGIN,
    PANEL,
    TEXT,
    WIDTH,
    Pen,
    canvas,
    draw_header,
    fitted,
    write,
)
from bot.rules.tournaments.model import Entrant, Pairing, Result

__all__ = ["BYE", "BracketBox", "BracketLayout", "bracket_layout", "render_bracket"]

BYE: Literal["bye"] = "bye"
Slot = int | Literal["bye"] | None  # a player, a bye (nobody comes), or not known yet

ROW = 36  # a player's row in a box
PITCH = 86  # from one box to the next in the first column shown
GAP = 48  # between columns, where the connectors run
TOP = 150  # the first box's slot starts here (under the title and the round names)
STUB = 16  # the loser's connector
SEED = 38  # the seed's column at the left of a row
SCORE = 40  # the score's column at the right of a row
CHAMPION_HEIGHT = 92
CHAMPION_GAP = 28  # between the final's box and the champion's under it
MAX_ROUNDS = 3


@dataclass(frozen=True, slots=True)
class BracketBox:
    """One match: where its box is, who is in its rows (top, bottom), and how it ended."""

    round: int
    table: int
    left: float
    top: float
    right: float
    bottom: float
    slots: tuple[Slot, Slot]
    decided: bool
    winner: int | None
    result: Result | None
    paired: bool

    def row_y(self, slot: int) -> float:
        """The vertical centre of row ``slot`` (0 top, 1 bottom)."""
        return self.top + ROW * (slot + 0.5)

    @property
    def winner_slot(self) -> int | None:
        if self.winner is None:
            return None
        return self.slots.index(self.winner) if self.winner in self.slots else None


@dataclass(frozen=True, slots=True)
class BracketLayout:
    """Where the bracket goes: the rounds shown, each match's box by (round, table), the
    champion's box if the final is shown, and the connectors between them."""

    width: int
    height: int
    rounds_total: int
    first_round: int
    last_round: int
    box_width: int
    boxes: Mapping[tuple[int, int], BracketBox]
    champion: tuple[float, float, float, float] | None
    current_round: int

    def connector(self, round_: int, table: int, slot: int) -> tuple[tuple[float, float], ...]:
        """The path from row ``slot`` of a box to its winner's place in the next round: out to
        the right, along the fork, into the next box's row (or the champion's box)."""
        box = self.boxes[(round_, table)]
        y = box.row_y(slot)
        fork = box.right + GAP / 2
        after = self.boxes.get((round_ + 1, (table + 1) // 2))
        if after is not None:
            target = after.row_y(0 if table % 2 else 1)
            return (box.right, y), (fork, y), (fork, target), (after.left, target)
        if self.champion is not None and round_ == self.rounds_total:
            target = (self.champion[1] + self.champion[3]) / 2
            return (box.right, y), (fork, y), (fork, target), (self.champion[2], target)
        return (box.right, y), (box.right + GAP * 0.8, y)

    def stub(self, round_: int, table: int, slot: int) -> tuple[tuple[float, float], ...]:
        """The loser's connector: a short line out of their row that leads nowhere."""
        box = self.boxes[(round_, table)]
        y = box.row_y(slot)
        return (box.right, y), (box.right + STUB, y)


def bracket_layout(
    *,
    pairings: Sequence[Pairing],
    results: Sequence[Result],
    rounds_total: int,
    max_rounds: int = MAX_ROUNDS,
    first_round: int | None = None,
) -> BracketLayout:
    """The boxes of rounds ``first_round`` (by default the round in play, or 1) to the last
    that fits ``max_rounds`` columns, and who is in each."""
    if rounds_total < 1:
        raise ValueError(f"a knockout has at least one round, not {rounds_total}")
    if max_rounds < 1:
        raise ValueError(f"show at least one round, not {max_rounds}")
    matches = _matches(pairings, results, rounds_total)
    current = _current_round(matches, rounds_total)
    latest_start = max(1, rounds_total - max_rounds + 1)
    first = min(latest_start, max(1, current if first_round is None else first_round))
    last = min(rounds_total, first + max_rounds - 1)
    columns = last - first + 1
    with_champion = last == rounds_total
    # the last column's connectors fork half a gap right of it (into the champion's box too)
    tail = GAP // 2 + 8
    box_width = int(min(360, (WIDTH - 2 * MARGIN - (columns - 1) * GAP - tail) / columns))
    boxes: dict[tuple[int, int], BracketBox] = {}
    for round_ in range(first, last + 1):
        column = round_ - first
        left = MARGIN + column * (box_width + GAP)
        pitch = PITCH * 2**column
        for table in range(1, 2 ** (rounds_total - round_) + 1):
            centre = TOP + pitch * (table - 0.5)
            boxes[(round_, table)] = BracketBox(
                round_, table, left, centre - ROW, left + box_width, centre + ROW,
                *matches[(round_, table)],
            )  # fmt: skip
    firsts = 2 ** (rounds_total - first)
    height = int(TOP + PITCH * firsts + MARGIN)
    width = max(WIDTH * 2 // 3, MARGIN + columns * box_width + (columns - 1) * GAP + tail + MARGIN)
    champion = None
    if with_champion:
        final = boxes[(rounds_total, 1)]
        top = final.bottom + CHAMPION_GAP
        champion = (final.left, top, final.right, top + CHAMPION_HEIGHT)
        height = max(height, int(champion[3]) + MARGIN)
    return BracketLayout(
        width, height, rounds_total, first, last, box_width, boxes, champion, current
    )


class _Match(NamedTuple):
    slots: tuple[Slot, Slot]
    decided: bool
    winner: int | None
    result: Result | None
    paired: bool


def _matches(
    pairings: Sequence[Pairing], results: Sequence[Result], rounds_total: int
) -> dict[tuple[int, int], _Match]:
    """Every match of the bracket: its slots (from the pairing, else from who has advanced),
    whether it is decided, its winner, its result and whether it was paired."""
    paired = {(p.round, p.table): p for p in pairings}
    ended = {(r.round, r.table): r for r in results}
    matches: dict[tuple[int, int], _Match] = {}
    for round_ in range(1, rounds_total + 1):
        for table in range(1, 2 ** (rounds_total - round_) + 1):
            came: tuple[Slot, Slot] = (None, None)
            if round_ > 1:
                came = (
                    _advanced(matches[(round_ - 1, 2 * table - 1)]),
                    _advanced(matches[(round_ - 1, 2 * table)]),
                )
            pairing = paired.get((round_, table))
            slots = came if pairing is None else _place(pairing, came)
            result = ended.get((round_, table))
            players = [slot for slot in slots if isinstance(slot, int)]
            if result is not None:
                decided, winner = True, result.winner
            elif BYE in slots and len(players) < 2:
                decided, winner = True, (players[0] if players else None)
            else:
                decided, winner = False, None
            matches[(round_, table)] = _Match(slots, decided, winner, result, pairing is not None)
    return matches


def _advanced(match: _Match) -> Slot:
    if not match.decided:
        return None
    return match.winner if match.winner is not None else BYE


def _place(pairing: Pairing, came: tuple[Slot, Slot]) -> tuple[Slot, Slot]:
    """The pairing's players in the rows they came to (top: from the upper match), so the
    connectors meet the right rows whatever order the pairing lists them in."""
    slots: list[Slot] = [None, None]
    rest: list[int] = []
    for player in pairing.players():
        if player == came[0] and slots[0] is None:
            slots[0] = player
        elif player == came[1] and slots[1] is None:
            slots[1] = player
        else:
            rest.append(player)
    for index in (0, 1):
        if slots[index] is None:
            slots[index] = rest.pop(0) if rest else BYE
    return slots[0], slots[1]


def _current_round(matches: Mapping[tuple[int, int], _Match], rounds_total: int) -> int:
    """The first round with an undecided match (the last round when all are decided)."""
    for round_ in range(1, rounds_total + 1):
        if any(not match.decided for (r, _), match in matches.items() if r == round_):
            return round_
    return rounds_total


def render_bracket(
    *,
    title: str,
    entrants: Sequence[Entrant],
    pairings: Sequence[Pairing],
    results: Sequence[Result],
    rounds_total: int,
    highlight: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    first_round: int | None = None,
    labels: list[Label] | None = None,
    language: Language = ENGLISH,
) -> bytes:
    """The knockout bracket as PNG bytes, its words in ``language``. ``highlight``: the viewer's
    player id, whose rows and path stand out; ``max_rounds``: the most round columns drawn;
    ``first_round``: the first of them (by default the round in play)."""
    layout = bracket_layout(
        pairings=pairings,
        results=results,
        rounds_total=rounds_total,
        max_rounds=max_rounds,
        first_round=first_round,
    )
    people = {entrant.player_id: entrant for entrant in entrants}
    image, draw = canvas(layout.width, layout.height, labels)
    subtitle = _subtitle(layout, people, len(entrants), language)
    draw_header(draw, title=title, subtitle=subtitle, width=layout.width)
    _round_names(draw, layout, language)
    _connectors(draw, layout, highlight)
    for box in layout.boxes.values():
        _box(draw, box, people, highlight, language)
    if layout.champion is not None:
        _champion(draw, layout, people, highlight, language)
    return encode_png(image)


def _subtitle(
    layout: BracketLayout, people: Mapping[int, Entrant], count: int, language: Language
) -> str:
    final = layout.boxes.get((layout.rounds_total, 1))
    total = layout.rounds_total
    parts = [say.KNOCKOUT_PLAYERS(language, count)]
    if final is not None and final.decided and final.winner is not None:
        parts.append(say.CHAMPION_IS(language, name=_name(final.winner, people, language)))
    elif not any(box.paired for box in layout.boxes.values()) and layout.first_round == 1:
        parts.append(say.WAITING_FOR_DRAW(language))
    else:
        current = rounds.knockout_round_name(layout.current_round, total, language)
        parts.append(say.IN_PLAY(language, round=current))
    if layout.first_round == 2:
        parts.append(say.ROUND_ONE_HIDDEN(language))
    elif layout.first_round > 2:
        parts.append(say.ROUNDS_HIDDEN(language, dash=DASH, last=layout.first_round - 1))
    if layout.last_round < total:
        after = rounds.knockout_round_name(layout.last_round + 1, total, language)
        parts.append(say.ONWARDS(language, round=after))
    return " · ".join(parts)


def _round_names(draw: Pen, layout: BracketLayout, language: Language) -> None:
    y = TOP - 24
    for round_ in range(layout.first_round, layout.last_round + 1):
        box = layout.boxes[(round_, 1)]
        current = round_ == layout.current_round
        colour = theme.TEXT if current else theme.MUTED
        name = rounds.knockout_round_name(round_, layout.rounds_total, language)
        write(draw, "heading", name, TEXT, (box.left + 4, y), colour, bold=True)
        if current:
            draw.line((box.left + 4, y + 18, box.right - 4, y + 18), fill=theme.WIN, width=3)


def _connectors(draw: Pen, layout: BracketLayout, highlight: int | None) -> None:
    """Grey for undecided matches and losers, then the winners' paths over them."""
    paths: list[tuple[tuple[tuple[float, float], ...], bool]] = []
    for (round_, table), box in layout.boxes.items():
        won = box.winner_slot
        if not box.decided or won is None:
            if box.decided:  # nobody advances
                for slot in (0, 1):
                    _line(draw, layout.stub(round_, table, slot), theme.LINE, 2)
                continue
            for slot in (0, 1):
                _line(draw, layout.connector(round_, table, slot), theme.LINE, 2)
            continue
        if box.slots[1 - won] != BYE:
            _line(draw, layout.stub(round_, table, 1 - won), theme.LINE, 2)
        paths.append((layout.connector(round_, table, won), box.winner == highlight))
    for path, mine in sorted(paths, key=lambda item: item[1]):
        _line(draw, path, theme.HIGHLIGHT if mine else theme.WIN, 4)


def _line(
    draw: Pen,
    points: tuple[tuple[float, float], ...],
    colour: theme.RGB,
    width: int,
) -> None:
    draw.line(points, fill=colour, width=width, joint="curve")


def _box(
    draw: Pen,
    box: BracketBox,
    people: Mapping[int, Entrant],
    highlight: int | None,
    language: Language,
) -> None:
    empty = all(slot is None for slot in box.slots)
    outline = theme.LINE if empty else None
    draw.rounded_rectangle(
        (box.left, box.top, box.right, box.bottom),
        radius=6,
        fill=PANEL if empty else BOX,
        outline=outline,
        width=2,
    )
    middle = box.top + ROW
    draw.line((box.left + 8, middle, box.right - 8, middle), fill=theme.BACKGROUND, width=1)
    for slot in (0, 1):
        _row(draw, box, slot, people, highlight, language)


def _row(
    draw: Pen,
    box: BracketBox,
    slot: int,
    people: Mapping[int, Entrant],
    highlight: int | None,
    language: Language,
) -> None:
    player = box.slots[slot]
    top, y = box.top + ROW * slot, box.row_y(slot)
    if player is None:
        return
    if player == BYE:
        write(draw, "name", say.BYE(language), TEXT, (box.left + SEED + 6, y), theme.MUTED)
        return
    won = box.decided and box.winner == player
    lost = box.decided and not won
    mine = player == highlight
    mark = theme.HIGHLIGHT if mine else theme.WIN
    if won:
        band = theme.blend(mark, BOX, 0.16)
        draw.rectangle((box.left + 2, top + 2, box.right - 2, top + ROW - 1), fill=band)
        draw.rectangle((box.left, top + 3, box.left + 4, top + ROW - 3), fill=mark)
    if mine:
        draw.rounded_rectangle(
            (box.left - 1, top, box.right + 1, top + ROW),
            radius=6,
            outline=theme.HIGHLIGHT,
            width=3,
        )
    entrant = people.get(player)
    if entrant is not None:
        seed = str(entrant.seed)
        write(draw, "seed", seed, TEXT, (box.left + SEED - 6, y), theme.MUTED, anchor="rm")
    score = _score(box.result, player, language) if box.result is not None else ""
    room = box.right - box.left - SEED - 10 - (SCORE if score else 6)
    name, size, cut = fitted(_name(player, people, language), room, bold=won)
    colour = theme.HIGHLIGHT if mine else theme.TEXT if not lost else theme.MUTED
    x = box.left + SEED + 2
    write(draw, "name", name, size, (x, y), colour, bold=won, cut=cut)
    if score:
        colour = theme.TEXT if won else theme.MUTED
        write(draw, "value", score, TEXT, (box.right - 10, y), colour, bold=won, anchor="rm")


def _score(result: Result, player: int, language: Language) -> str:
    """The points ``player`` scored, or W/L for a match decided without play."""
    if result.reason == "bye" or result.second is None:
        return ""
    if result.first_points or result.second_points:
        return str(result.points_of(player))
    if result.winner is None:
        return DASH
    return (say.WON if result.winner == player else say.LOST)(language)


def _champion(
    draw: Pen,
    layout: BracketLayout,
    people: Mapping[int, Entrant],
    highlight: int | None,
    language: Language,
) -> None:
    assert layout.champion is not None
    left, top, right, bottom = layout.champion
    final = layout.boxes[(layout.rounds_total, 1)]
    winner = final.winner if final.decided else None
    gold = theme.HIGHLIGHT
    centre = (left + right) / 2
    if winner is None:
        draw.rounded_rectangle(layout.champion, radius=10, fill=PANEL, outline=theme.LINE, width=2)
        title = say.CHAMPION(language)
        write(draw, "heading", title, TEXT, (centre, top + 28), theme.MUTED, anchor="mm")
        write(draw, "name", "?", 30, (centre, bottom - 28), theme.MUTED, bold=True, anchor="mm")
        return
    draw.rounded_rectangle(
        layout.champion, radius=10, fill=theme.blend(gold, BOX, 0.14), outline=gold, width=3
    )
    title = f"🏆 {say.CHAMPION(language)}"
    write(draw, "heading", title, TEXT, (centre, top + 28), gold, anchor="mm")
    name, size, cut = fitted(
        _name(winner, people, language), right - left - 20, sizes=(26, 24, TEXT), bold=True
    )
    colour = gold if winner == highlight else theme.TEXT
    write(
        draw, "winner", name, size, (centre, bottom - 28), colour, bold=True, anchor="mm", cut=cut
    )


def _name(player: int, people: Mapping[int, Entrant], language: Language) -> str:
    entrant = people.get(player)
    return entrant.name if entrant is not None else say.A_PLAYER(language, id=player)
