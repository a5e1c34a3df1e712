"""The sample boards the boards' palette is worked out from
(:func:`bot.render.palette.sample_palette`)."""

from __future__ import annotations

from bot.render.arrows import Arrow, arrows_of
from bot.render.state import BoardState, LastPlay


def palette_samples() -> list[tuple[BoardState, tuple[Arrow, ...]]]:
    """Boards that show every colour the renderer draws, with the arrows drawn on some: the
    boards' palette is worked out from them, and the warm-up draws those without arrows."""
    from bot.rules import Position

    start = Position.initial()
    busy = Position.from_points({25: 1, 23: 1, 13: 7, 8: 3, 6: 3}, {25: 2, 6: 9, 8: 2, 1: 1})
    played = busy.legal_plays(3, 1)[0]
    bear = Position.from_points({3: 2, 1: 1}, {6: 2, 25: 1})
    arrows = (
        arrows_of("bar/24* 13/8 6/1", "played")
        + arrows_of("bar/24*/20 23/18 13/7", "best")
        + arrows_of("8/2 6/2", "candidate")
    )
    states = [
        BoardState(
            start,
            on_roll=0,
            players=("alice", "bob"),
            match_length=5,
            dice=(6, 5),
            phase="move",
            last_play=LastPlay(1, played),
            cube_value=2,
            cube_owner=1,
        ),
        BoardState(
            busy,
            on_roll=1,
            players=("A long player name", "bob"),
            score=(4, 2),
            match_length=5,
            crawford=True,
            dice=(3, 1),
            dice_used=1,
            phase="move",
            last_play=LastPlay(0, played),
        ),
        BoardState(busy, on_roll=0, players=("alice", "bob"), cube_value=4, phase="doubled"),
        BoardState(bear, on_roll=1, players=("alice", "bob"), phase="resigned", cube_owner=0),
        BoardState(
            bear,
            on_roll=0,
            players=("alice", "bob"),
            phase="over",
            winner=0,
            score=(3, 0),
            match_length=3,
        ),
    ]
    samples: list[tuple[BoardState, tuple[Arrow, ...]]] = [(state, ()) for state in states]
    samples.append((BoardState(busy, on_roll=0, players=("alice", "bob")), arrows))
    samples.append(
        (BoardState(bear, on_roll=0, players=("alice", "bob")), arrows_of("3/off 1/off", "best"))
    )
    return samples
