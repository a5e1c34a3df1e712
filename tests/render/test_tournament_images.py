"""Tournament images: sizes, and the pixels where the layouts say things are."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.i18n.core import ENGLISH
from bot.i18n.tournaments import knockout_round_name
from bot.render import theme
from bot.render.bracket import BYE, bracket_layout, render_bracket
from bot.render.standings import (
    LOSS_TINT,
    MINE,
    WIN_TINT,
    grid_layout,
    render_round_robin_grid,
    render_standings,
    standings_layout,
)
from bot.render.theme import GRID, LINE, LOSS, WIN
from bot.render.tournament import (
    PANEL,
    ReportRow,
    pr_colour,
    render_report_chart,
    report_layout,
)
from bot.rules.tournaments.model import Entrant, Pairing, Result, Standing


def image_of(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(pixel: object, colour: tuple[int, int, int], tolerance: int = 14) -> bool:
    assert isinstance(pixel, tuple)
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def at(image: Image.Image, x: float, y: float) -> object:
    return image.getpixel((round(x), round(y)))


def middle(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def entrants(count: int) -> list[Entrant]:
    return [Entrant(player, f"Player number {player}", player) for player in range(1, count + 1)]


def slot_order(size: int) -> list[int]:
    """Seeds in bracket order: 1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight."""
    order = [1]
    while len(order) < size:
        order = [seed for top in order for seed in (top, 2 * len(order) + 1 - top)]
    return order


def first_round(count: int) -> tuple[list[Pairing], int]:
    """Round 1 of a bracket of ``count`` entrants (seed = player id), byes for the top seeds."""
    rounds = max(1, (count - 1).bit_length())
    order = slot_order(2**rounds)
    pairings = []
    for table in range(1, 2 ** (rounds - 1) + 1):
        a, b = order[2 * table - 2], order[2 * table - 1]
        pairings.append(Pairing(1, table, a, b if b <= count else None))
    return pairings, rounds


# eight players: three of four first-round matches decided, the first semi-final paired
EIGHT, ROUNDS = first_round(8)
EIGHT_RESULTS = [
    Result(1, 1, 1, 8, 1, 7, 3),
    Result(1, 2, 4, 5, 5, 6, 7),
    Result(1, 4, 3, 6, 6, 2, 7),
]
EIGHT_PAIRINGS = [*EIGHT, Pairing(2, 1, 1, 5)]


def eight(highlight: int | None = None) -> bytes:
    return render_bracket(
        title="Friday Knockout",
        entrants=entrants(8),
        pairings=EIGHT_PAIRINGS,
        results=EIGHT_RESULTS,
        rounds_total=ROUNDS,
        highlight=highlight,
    )


def test_round_names() -> None:
    assert [knockout_round_name(r, 6, ENGLISH) for r in range(1, 7)] == [
        "Round 1",
        "Round 2",
        "Round 3",
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
    assert knockout_round_name(1, 1, ENGLISH) == "Final"


def test_bracket_size_and_boxes() -> None:
    layout = bracket_layout(pairings=EIGHT_PAIRINGS, results=EIGHT_RESULTS, rounds_total=ROUNDS)
    image = image_of(eight())
    assert image.size == (layout.width, layout.height)
    assert 800 <= layout.width <= 900
    assert sorted(layout.boxes) == [(1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 2), (3, 1)]
    assert layout.champion is not None
    assert layout.current_round == 1
    assert layout.boxes[(1, 3)].slots == (2, 7) and not layout.boxes[(1, 3)].decided
    assert layout.boxes[(2, 2)].slots == (None, 6)  # table 4's winner waits in the lower row


def test_the_winners_path_is_coloured_and_the_losers_connector_is_not() -> None:
    image = image_of(eight())
    layout = bracket_layout(pairings=EIGHT_PAIRINGS, results=EIGHT_RESULTS, rounds_total=ROUNDS)
    for table, winner_slot in ((1, 0), (2, 1), (4, 1)):
        path = layout.connector(1, table, winner_slot)
        assert path[-1][0] == layout.boxes[(2, (table + 1) // 2)].left  # ends at the next box
        assert near(at(image, *middle(path[-2], path[-1])), WIN)
        stub = layout.stub(1, table, 1 - winner_slot)
        assert near(at(image, *middle(*stub)), LINE)
        assert not near(at(image, *middle(*stub)), WIN, 40)
    undecided = layout.connector(1, 3, 0)
    assert near(at(image, *middle(undecided[-2], undecided[-1])), LINE)


def test_the_viewers_path_is_highlighted() -> None:
    layout = bracket_layout(pairings=EIGHT_PAIRINGS, results=EIGHT_RESULTS, rounds_total=ROUNDS)
    path = layout.connector(1, 2, 1)  # player 5 won table 2
    spot = middle(path[-2], path[-1])
    assert near(at(image_of(eight(highlight=5)), *spot), theme.HIGHLIGHT)
    assert near(at(image_of(eight(highlight=1)), *spot), WIN)


def test_future_rounds_are_empty_boxes_joined_by_lines() -> None:
    image = image_of(eight())
    layout = bracket_layout(pairings=EIGHT_PAIRINGS, results=EIGHT_RESULTS, rounds_total=ROUNDS)
    final = layout.boxes[(3, 1)]
    assert final.slots == (None, None) and not final.paired
    assert near(at(image, final.left + 40, final.top + 10), PANEL)
    into_final = layout.connector(2, 1, 0)
    assert near(at(image, *middle(into_final[-2], into_final[-1])), LINE)
    assert layout.champion is not None
    left, top, _, bottom = layout.champion
    assert near(at(image, left + 1, (top + bottom) / 2), LINE, 30)  # no champion yet


def test_the_champion_under_the_final() -> None:
    results = [
        *EIGHT_RESULTS,
        Result(1, 3, 2, 7, 2, 7, 1),
        Result(2, 1, 1, 5, 5, 3, 7),
        Result(2, 2, 2, 6, 2, 7, 5),
        Result(3, 1, 5, 2, 5, 11, 9),
    ]
    pairings = [*EIGHT, Pairing(2, 1, 1, 5), Pairing(2, 2, 2, 6), Pairing(3, 1, 5, 2)]
    layout = bracket_layout(pairings=pairings, results=results, rounds_total=ROUNDS)
    image = image_of(
        render_bracket(
            title="Done", entrants=entrants(8), pairings=pairings, results=results, rounds_total=3
        )
    )
    assert layout.champion is not None
    left, top, right, bottom = layout.champion
    final = layout.boxes[(3, 1)]
    assert (left, right) == (final.left, final.right) and top > final.bottom
    assert near(at(image, right - 1, (top + bottom) / 2), theme.HIGHLIGHT, 30)
    path = layout.connector(3, 1, 0)
    assert path[-1][0] == right
    assert near(at(image, *middle(path[-2], path[-1])), WIN)


def test_pairings_in_any_order_keep_players_in_the_rows_they_came_to() -> None:
    pairings = [*EIGHT, Pairing(2, 1, 5, 1)]  # table 2's winner listed first
    layout = bracket_layout(pairings=pairings, results=EIGHT_RESULTS, rounds_total=ROUNDS)
    assert layout.boxes[(2, 1)].slots == (1, 5)


@pytest.mark.parametrize("count", [2, 3, 8, 13, 16, 32, 64])
def test_every_entrant_has_a_box(count: int) -> None:
    pairings, rounds = first_round(count)
    layout = bracket_layout(pairings=pairings, results=[], rounds_total=rounds)
    placed = {
        slot for (round_, _), box in layout.boxes.items() for slot in box.slots if round_ == 1
    }
    assert set(range(1, count + 1)) <= placed
    data = render_bracket(
        title="All", entrants=entrants(count), pairings=pairings, results=[], rounds_total=rounds
    )
    assert image_of(data).size == (layout.width, layout.height)


def test_byes_advance_before_the_next_round_is_paired() -> None:
    pairings, rounds = first_round(13)
    assert rounds == 4
    image = image_of(
        render_bracket(
            title="Byes", entrants=entrants(13), pairings=pairings, results=[], rounds_total=4
        )
    )
    layout = bracket_layout(pairings=pairings, results=[], rounds_total=4)
    byes = [box for (r, _), box in layout.boxes.items() if r == 1 and BYE in box.slots]
    assert [box.slots[0] for box in byes] == [1, 2, 3]
    for box in byes:
        assert box.decided and box.winner == box.slots[0]
        path = layout.connector(1, box.table, 0)
        assert near(at(image, *middle(path[-2], path[-1])), WIN)
    assert layout.boxes[(2, 1)].slots == (1, None)  # seed 1 waits for 8 v 9


def test_a_double_forfeit_sends_nobody_on() -> None:
    results = [Result(1, 1, 1, 8, None, reason="forfeit")]
    layout = bracket_layout(pairings=EIGHT, results=results, rounds_total=ROUNDS)
    assert layout.boxes[(1, 1)].decided and layout.boxes[(1, 1)].winner is None
    assert layout.boxes[(2, 1)].slots == (BYE, None)


def test_large_brackets_are_tall_and_show_the_rounds_in_play() -> None:
    pairings, rounds = first_round(64)
    layout = bracket_layout(pairings=pairings, results=[], rounds_total=rounds)
    assert (layout.first_round, layout.last_round) == (1, 3)
    assert layout.champion is None
    assert layout.height > 2 * layout.width
    assert layout.width <= 900
    # with the first three rounds played, the window reaches the final
    results: list[Result] = []
    alive = [p for pairing in pairings for p in pairing.players()]
    all_pairings = list(pairings)
    for round_ in range(1, 4):
        pairs = [(alive[i], alive[i + 1]) for i in range(0, len(alive), 2)]
        if round_ > 1:
            all_pairings += [Pairing(round_, t, a, b) for t, (a, b) in enumerate(pairs, 1)]
        results += [Result(round_, t, a, b, a, 7, 2) for t, (a, b) in enumerate(pairs, 1)]
        alive = [a for a, _ in pairs]
    late = bracket_layout(pairings=all_pairings, results=results, rounds_total=rounds)
    assert (late.first_round, late.last_round, late.current_round) == (4, 6, 4)
    assert late.champion is not None
    assert late.boxes[(4, 1)].slots == (alive[0], alive[1])


def test_sixteen_entrants_show_three_rounds_from_the_one_in_play() -> None:
    pairings, rounds = first_round(16)
    layout = bracket_layout(pairings=pairings, results=[], rounds_total=rounds)
    assert (layout.first_round, layout.last_round) == (1, 3)
    assert layout.champion is None
    results = [Result(1, p.table, p.first, p.second, p.first, 5, 1) for p in pairings]
    layout = bracket_layout(pairings=pairings, results=results, rounds_total=rounds)
    assert (layout.first_round, layout.last_round) == (2, 4)
    assert layout.champion is not None


def test_a_bracket_needs_a_round() -> None:
    with pytest.raises(ValueError, match="at least one round"):
        bracket_layout(pairings=[], results=[], rounds_total=0)


# -- standings ---------------------------------------------------------------------------------


def standings(count: int) -> list[Standing]:
    return [
        Standing(
            rank=index + 1,
            player_id=1000 + index,
            name=f"A rather long player name {index:>5}",
            played=8,
            wins=8 - index * 8 // count,
            losses=index * 8 // count,
            byes=1 if index % 17 == 0 else 0,
            match_points=8 - index * 8 // count,
            buchholz=40 - index % 13,
            points_difference=30 - index % 61,
            withdrawn=index % 23 == 5,
        )
        for index in range(count)
    ]


def test_256_standings_show_the_top_rows_and_the_viewer() -> None:
    table = standings(256)
    viewer = table[200].player_id
    data = render_standings(
        title="Big Swiss", subtitle="after round 8", standings=table, highlight=viewer
    )
    assert len(data) < 200_000
    image = image_of(data)
    layout = standings_layout(table, rows=32, highlight=viewer)
    assert image.size == (layout.width, layout.height)
    assert [player for player, _, _ in layout.rows] == [s.player_id for s in table[:32]] + [viewer]
    assert layout.separator is not None
    assert layout.separator[0] == layout.rows[31][2] and layout.separator[1] == layout.rows[32][1]
    _, top, _ = layout.rows[-1]
    assert near(at(image, layout.width / 2, top + 3), MINE)
    _, top, _ = layout.rows[10]
    assert not near(at(image, layout.width / 2, top + 3), MINE)


def test_a_viewer_in_the_top_rows_needs_no_separator() -> None:
    table = standings(40)
    layout = standings_layout(table, rows=20, highlight=table[3].player_id)
    assert len(layout.rows) == 20 and layout.separator is None
    image = image_of(
        render_standings(
            title="S", subtitle="", standings=table, rows=20, highlight=table[3].player_id
        )
    )
    assert image.size == (layout.width, layout.height)
    assert near(at(image, layout.width / 2, layout.rows[3][1] + 3), MINE)


def test_withdrawn_players_are_marked() -> None:
    table = standings(12)  # index 5 withdrew
    image = image_of(render_standings(title="S", subtitle="", standings=table))
    layout = standings_layout(table)

    def has_loss_colour(row: int) -> bool:
        _, top, bottom = layout.rows[row]
        colours = image.crop((0, round(top), layout.width, round(bottom))).getcolors(1 << 16)
        return any(near(colour, LOSS, 30) for _, colour in colours or [])

    assert has_loss_colour(5)
    assert not has_loss_colour(4)


def test_empty_standings() -> None:
    image = image_of(render_standings(title="S", subtitle="nobody yet", standings=[]))
    assert image.size[0] == 900


# -- the round-robin crosstable ----------------------------------------------------------------


def test_the_crosstable_tints_wins_and_losses() -> None:
    players = entrants(7)
    results = [
        Result(1, 1, 1, 2, 1, 3, 1),
        Result(1, 2, 3, 4, 4, 0, 3),
        Result(2, 1, 5, 1, None, reason="forfeit"),
    ]
    image = image_of(render_round_robin_grid(title="RR", entrants=players, results=results))
    layout = grid_layout(players, results)
    assert image.size[0] == layout.width == 900

    def cell(row: int, column: int) -> object:
        left, top, _, _ = layout.box(row, column)
        return at(image, left + 8, top + 8)

    assert near(cell(0, 1), WIN_TINT)  # player 1 beat player 2
    assert near(cell(1, 0), LOSS_TINT)
    assert near(cell(3, 2), WIN_TINT)
    assert near(cell(2, 3), LOSS_TINT)
    assert near(cell(0, 4), PANEL)  # no winner
    assert near(cell(5, 6), PANEL)  # not played
    assert near(cell(2, 2), GRID)  # the diagonal


def test_the_crosstable_has_room_for_ten() -> None:
    layout = grid_layout(entrants(10))
    assert layout.width <= 900
    with pytest.raises(ValueError, match="at most 10"):
        render_round_robin_grid(title="RR", entrants=entrants(11), results=[])


# -- the report chart --------------------------------------------------------------------------

REPORT = [
    ReportRow("Alice", 4.2, 2.1, 0.8, 4, 1),
    ReportRow("Bob", 11.5, 6.0, -0.4, 3, 2),
    ReportRow("Mikhail Vasilyevich Lomonosov III", None, None, None, 2, 3),
    ReportRow("Dmitri", 19.0, 12.0, 0.0, 2, 4),
    ReportRow("Eve", 7.3, 7.3, -1.2, 1, 5),
]


def test_one_bar_per_analysed_player_longer_for_a_worse_pr() -> None:
    image = image_of(render_report_chart(title="Report", rows=REPORT))
    layout = report_layout(REPORT)
    assert image.size == (layout.width, layout.height)
    assert [bar is not None for bar in layout.bars] == [True, True, False, True, True]
    bars = list(zip(REPORT, layout.bars, layout.centres, strict=True))
    lengths = {row.name: bar[2] - bar[0] for row, bar, _ in bars if bar}
    assert lengths["Alice"] < lengths["Eve"] < lengths["Bob"] < lengths["Dmitri"]
    for row, bar, centre in bars:
        if bar is None:
            spot = at(image, layout.x(5), centre + 10)
            assert not any(near(spot, pr_colour(pr), 30) for pr in (0, 8, 12, 16, 25))
        else:
            assert row.pr is not None
            assert near(at(image, bar[0] + 6, centre), pr_colour(row.pr))
            assert not near(at(image, bar[2] + 4, centre - 12), pr_colour(row.pr), 30)


def test_report_chart_colours_and_empty() -> None:
    assert pr_colour(3) == WIN and pr_colour(30) == LOSS
    image = image_of(render_report_chart(title="Nobody", rows=[]))
    assert image.size[0] == 900
