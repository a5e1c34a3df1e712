"""Reference boards: the states whose pixels the renderer must keep, and their PNGs.

The PNGs in ``tests/render/boards/`` were drawn by the renderer before it was made fast (issue
32); ``test_board_pixels.py`` checks that today's renderer draws the same pixels. They are the
bench's sample states plus a seeded set of random ones (positions, dice, cube, score, phases,
names in many scripts, the last play, arrows, clocks, two sizes). Rewrite them only for a
deliberate change of the look, and look at the new images first:

    python -m tests.render.board_references        # from the repository's root
"""

from __future__ import annotations

import io
import random
from pathlib import Path

from PIL import Image

from bench.render import sample_states
from bot.render import Arrow, BoardState, LastPlay, arrows_of, render_board
from bot.render.geometry import DEFAULT_SIZE, Size
from bot.rules import Position

FOLDER = Path(__file__).with_name("boards")
RANDOM_BOARDS = 30
SEED = 32
PHONE: Size = (400, 326)

NAMES = (
    "alice",
    "bob",
    "Sir Reginald Backgammonington III",
    "the_quiet_one_from_discord_12345",
    "Zoë Ångström",
    "محمد",
    "🎲 dice 🎲",
    "王小明",
    "Łukasz",
    "x",
)


class Reference:
    """One board to keep: its state, viewer, arrows and size."""

    def __init__(
        self,
        name: str,
        state: BoardState,
        viewer: int | None,
        arrows: tuple[Arrow, ...] = (),
        size: Size = DEFAULT_SIZE,
    ) -> None:
        self.name = name
        self.state = state
        self.viewer = viewer
        self.arrows = arrows
        self.size = size

    def render(self) -> bytes:
        return render_board(self.state, viewer=self.viewer, size=self.size, arrows=self.arrows)

    @property
    def path(self) -> Path:
        return FOLDER / f"{self.name}.png"


def _position(rng: random.Random) -> Position:
    mover = [0] * 25
    opponent = [0] * 25
    for side, other in ((mover, opponent), (opponent, mover)):
        for _ in range(rng.randint(1, 15)):
            slot = rng.choice(range(25)) if rng.random() < 0.9 else 24
            if slot < 24 and other[23 - slot]:
                continue
            side[slot] += 1
    if not sum(mover):
        mover[0] = 1
    if not sum(opponent):
        opponent[0 if not mover[23] else 1] = 1
    return Position(tuple(mover), tuple(opponent))


def _random_state(rng: random.Random) -> tuple[BoardState, int | None, tuple[Arrow, ...]]:
    before = _position(rng)
    last: LastPlay | None = None
    on_roll = rng.randint(0, 1)
    position = before
    if rng.random() < 0.6:
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        play = rng.choice(before.legal_plays(*roll))
        if play.steps:
            position = before.play(play)
            last = LastPlay(1 - on_roll, play)
    phase = rng.choice(("roll", "move", "move", "move", "doubled", "resigned", "over"))
    match_length = rng.choice((0, 1, 3, 5, 7, 11, 25))
    score = (0, 0)
    if match_length:
        score = (rng.randrange(match_length), rng.randrange(match_length))
    crawford = bool(match_length) and rng.random() < 0.15
    cube_value = rng.choice((1, 1, 2, 4, 8, 16, 64))
    cube_owner = None if cube_value == 1 else rng.choice((0, 1, None))
    dice: tuple[int, int] | None = None
    dice_used = 0
    arrows: tuple[Arrow, ...] = ()
    if phase == "move":
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        dice_used = rng.choice((0, 0, 1, 2 if dice[0] == dice[1] else 1))
        plays = position.legal_plays(*dice)
        if plays[0].steps and rng.random() < 0.4:
            arrows = arrows_of(rng.choice(plays).notation, "played")
            if rng.random() < 0.6:
                arrows += arrows_of(rng.choice(plays).notation, "best")
    winner = rng.randint(0, 1) if phase == "over" else None
    clock = None
    running = None
    delay = 0.0
    if rng.random() < 0.25:
        clock = (rng.uniform(0, 900), rng.uniform(0, 900))
        running = rng.choice((0, 1, None))
        delay = rng.choice((0.0, 7.0)) if running is not None else 0.0
    state = BoardState(
        position,
        on_roll,
        (rng.choice(NAMES), rng.choice(NAMES)),
        match_length=match_length,
        score=score,
        crawford=crawford,
        cube_value=cube_value,
        cube_owner=cube_owner,
        dice=dice,
        dice_used=dice_used,
        phase=phase,
        winner=winner,
        last_play=last,
        resignation=rng.randint(0, 3) if phase == "resigned" else 0,
        beavers=phase == "doubled" and rng.random() < 0.5,
        result=rng.choice((None, "single", "gammon", "backgammon")) if phase == "over" else None,
        points=rng.randint(1, 6) if phase == "over" else 0,
        clock=clock,
        clock_running=running,
        clock_delay=delay,
    )
    return state, rng.choice((0, 1, None)), arrows


def references() -> list[Reference]:
    """The bench's samples, then the seeded random boards (every fifth at a phone's size)."""
    found = [
        Reference(f"bench-{name}", state, viewer)
        for name, (state, viewer) in sample_states().items()
    ]
    rng = random.Random(SEED)
    for index in range(RANDOM_BOARDS):
        state, viewer, arrows = _random_state(rng)
        size = PHONE if index % 5 == 4 else DEFAULT_SIZE
        found.append(Reference(f"random-{index:02d}", state, viewer, arrows, size))
    return found


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    for reference in references():
        image = Image.open(io.BytesIO(reference.render()))
        image.save(reference.path, optimize=True, compress_level=9)
        print(reference.path)


if __name__ == "__main__":
    main()
