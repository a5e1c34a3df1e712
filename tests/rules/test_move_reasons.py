"""Refused plays name the real reason; look-alike characters are read as what they look like.

Boards are drawn from the side of X, the player on roll, whose home board is bottom right.
"""

from __future__ import annotations

import itertools
import random
import re
import unicodedata
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, Position
from bot.rules.errors import QUOTE_LIMIT
from bot.rules.notation import BAR, OFF, normalise_play_text, parse_segments
from bot.rules.randomplay import self_play_positions

START = Position.initial()
_POSITIONS = list(self_play_positions(11, 400))


def refusal(position: Position, text: str, dice: tuple[int, int]) -> str:
    with pytest.raises(IllegalMoveError) as raised:
        position.parse_play(text, dice)
    return str(raised.value)


# -- the reported cases ---------------------------------------------------------------------------


def test_a_die_used_twice_says_the_roll_has_one_of_it() -> None:
    # 4-1 from the start: 13/9 is a 4, and there is only one 4.
    assert refusal(START, "13/9 13/9", (4, 1)) == (
        "your 4-1 plays one 4 and one 1, so 13/9 can be played only once (you typed '13/9 13/9')"
    )
    assert refusal(START, "13/9(2)", (4, 1)).startswith(
        "your 4-1 plays one 4 and one 1, so 13/9 can be played only once"
    )
    assert refusal(START, "13/9 8/4", (4, 1)).startswith(
        "your 4-1 plays one 4 and one 1: 13/9 and 8/4 both need the 4"
    )
    # 13/8 is the 4 and the 1 together: nothing is left for 13/9.
    assert refusal(START, "13/8 13/9", (4, 1)).startswith(
        "too many moves: that takes 3 dice (13/8 takes 2 of them), and your 4-1 has 2"
    )


def test_more_moves_than_dice_is_too_many_moves_not_a_closed_point() -> None:
    # 6-4: five moves typed; 2/1 would land on O's 24 point (closed), but that is not the point.
    assert refusal(START, "13/7 8/7 6/5 4/3 2/1", (6, 4)) == (
        "too many moves: your 6-4 plays 2 dice, one move each, and that is 5 moves "
        "(you typed '13/7 8/7 6/5 4/3 2/1')"
    )
    assert refusal(START, "24/18(2) 13/7(2) 8/2", (6, 6)).startswith(
        "too many moves: your 6-6 plays 4 dice, one move each, and that is 5 moves"
    )


def test_a_count_after_the_last_move_repeats_only_that_move() -> None:
    # "24/18 18/14 (2)" reads as 24/18 once and 18/14 twice: three moves for a 6-4.
    assert refusal(START, "24/18 18/14 (2)", (6, 4)) == (
        "too many moves: your 6-4 plays 2 dice, one move each, and that is 3 moves; the (2) "
        "in 18/14(2) repeats only that move (you typed '24/18 18/14 (2)')"
    )
    # Moving two checkers 24/14 needs four dice.
    assert refusal(START, "24/14(2)", (6, 4)).startswith(
        "too many moves: that takes 4 dice (24/14 takes 2 of them), and your 6-4 has 2"
    )


def test_checkers_that_arrive_are_counted_before_blaming_a_missing_one() -> None:
    # X has nothing on 18 (or 12): 24/18 brings one there, 18/12(2) moves two away.
    #  +13-14-15-16-17-18-------19-20-21-22-23-24-+
    #  |             O    |   | O           O  X |
    #  |             O    |   | O           O  X |
    #  |             O    |   | O           O    |
    #  |                  |BAR|                  |
    #  |             X    |   | X                |
    #  |             X    |   | X                |   (X: 5 on 8, 8 on 6)
    #  +12-11-10--9--8--7--------6--5--4--3--2--1-+
    position = Position.from_points({24: 2, 8: 5, 6: 8}, {6: 5, 8: 5, 2: 5})
    assert refusal(position, "24/18 18/12(2)", (6, 6)).startswith(
        "you move 2 checkers from 18, but you have none there and only 1 more arrives"
    )
    assert refusal(START, "9/3 8/7", (6, 1)).startswith("you have no checker on 9")


def test_a_move_whose_every_way_is_closed_is_blocked() -> None:
    # 6-4 from 23 to 13 stops on 19 or 17, and O holds both.
    #  +13-14-15-16-17-18-------19-20-21-22-23-24-+
    #  | X           O    |   | O           X  O |
    #  | X           O    |   | O              O |
    #  | X           O    |   | O                |
    #  |                  |BAR|                  |
    #  | O           X    |   | X                |
    #  | O           X    |   | X                |
    #  +12-11-10--9--8--7--------6--5--4--3--2--1-+
    position = Position.from_points({23: 1, 13: 5, 8: 3, 6: 6}, {6: 5, 8: 3, 13: 5, 1: 2})
    assert refusal(position, "23/13", (6, 4)) == (
        "23/13 is blocked: 19 and 17 are closed (you typed '23/13')"
    )


def test_bearing_off_with_a_bigger_number_while_a_checker_is_higher() -> None:
    # Bearing off: X has one on 5, two on 3, three on 2 (O far away).
    #  |                  |   |    X     X  X    |
    #  |                  |   |          X  X    |
    #  |                  |   |             X    |
    #  +12-11-10--9--8--7--------6--5--4--3--2--1-+
    position = Position.from_points({5: 1, 3: 2, 2: 3}, {6: 5, 8: 5, 13: 5})
    assert refusal(position, "3/off 3/off", (6, 3)) == (
        "3/off needs a 3: a bigger number bears off only from your highest point, and you have "
        "a checker on 5 (you typed '3/off 3/off')"
    )
    assert position.parse_play("5/off 3/off", (6, 3)).notation == "5/off 3/off"


def test_one_pip_is_singular() -> None:
    message = refusal(START, "8/7 6/5", (6, 5))
    assert message.startswith("8/7 is 1 pip, which your 6-5 can't make")
    assert "1 pips" not in message
    assert refusal(START, "13/9 8/7", (6, 1)).startswith("13/9 is 4 pips, which")


@pytest.mark.parametrize(
    ("text", "dice", "error", "reason"),
    [
        ("13/9 " * 600, (4, 1), IllegalMoveError, "too many moves"),
        ("13/" + "7" * 3000, (6, 1), InvalidMoveError, "that is not a move: there is no point"),
        ("x" * 3000, (6, 1), InvalidMoveError, "that is not a move: 'xxxx"),
        ("13/7 " + "x" * 3000, (6, 1), InvalidMoveError, "that is not a move: 'xxxx"),
        ("13/7 8/7 " + "\n" * 50 + "24/23", (6, 1), IllegalMoveError, "too many moves"),
    ],
)
def test_long_input_is_quoted_short_after_the_reason(
    text: str, dice: tuple[int, int], error: type[Exception], reason: str
) -> None:
    with pytest.raises(error) as raised:
        START.parse_play(text, dice)
    message = str(raised.value)
    assert message.startswith(reason)
    assert len(message) < 4 * QUOTE_LIMIT + 100
    assert "\n" not in message
    assert message.count("…") <= 2


def test_short_input_is_quoted_whole_once() -> None:
    assert refusal(START, "24/17", (6, 1)) == (
        "17 is closed: your opponent has 3 checkers there (you typed '24/17')"
    )
    with pytest.raises(InvalidMoveError) as raised:
        START.parse_play("13/x", (6, 1))
    assert str(raised.value) == (
        "that is not a move: 'x' in '13/x' is not a point; use from/to like 13/7, bar/22 or 6/off"
    )


# -- look-alike characters ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "\uff11\uff13/\uff17 \uff18/\uff14",  # full-width digits
        "13\uff0f7 8\uff0f4",  # full-width slashes
        "13\u20137 8\u20134",  # en dashes, FIBS style
        "13\u22127 8\u22124",  # minus signs
        "13\u20147 8\u20104",  # em dash, hyphen
        "13\u22157 8\u20444",  # division slash, fraction slash
        "\u0661\u0663/\u0667 \u0668/\u0664",  # Arabic-Indic digits
        "13/7\u200b 8/4",  # a zero-width space
        "13/7\u00a08/4",  # a no-break space
        "\uff08\uff11\uff13/\uff17\uff09 8/4",  # full-width brackets are not a count: unreadable
    ],
)
def test_look_alikes_read_as_ascii(text: str) -> None:
    if "\uff08" in text:
        with pytest.raises(InvalidMoveError):
            START.parse_play(text, (6, 4))
        return
    assert START.parse_play(text, (6, 4)).notation == "13/7 8/4"


def test_full_width_words_and_counts() -> None:
    # X has a checker on the bar; O's 5 point (X's 20) is open.
    position = Position.from_points({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert position.parse_play("\uff22\uff21\uff32/20 24/23", (5, 1)).notation == "bar/20 24/23"
    assert (
        START.parse_play("8/5\uff08\uff12\uff09 6/3\uff08\uff12\uff09", (3, 3)).notation
        == "8/5(2) 6/3(2)"
    )


def test_star_look_alikes_mark_a_hit() -> None:
    # O has a blot on X's 20.
    position = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {5: 1, 6: 5, 8: 3, 13: 5, 24: 1})
    for star in "*\uff0a\u2217\u204e\u2731":
        assert position.parse_play(f"24/20{star} 13/11", (4, 2)).notation == "24/20* 13/11"


_WIDE = {**{c: chr(ord(c) + 0xFEE0) for c in "0123456789/()*"}, "-": "\u2212", " ": "\u3000"}


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_nfkc_equivalent_text_parses_to_the_same_play(data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(_POSITIONS) - 1))
    position, dice = _POSITIONS[index]
    plays = position.legal_plays(*dice)
    play = data.draw(st.sampled_from(plays))
    if not play.steps:
        return
    text = play.notation
    if data.draw(st.booleans()):
        text = text.replace("/", "-")
    flags = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    variant = "".join(_WIDE.get(c, c) if flag else c for c, flag in zip(text, flags, strict=True))
    assert normalise_play_text(variant) == text
    assert position.parse_play(variant, dice) == play


def _outcome(text: str, dice: tuple[int, int]) -> object:
    try:
        return START.parse_play(text, dice)
    except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as error:
        return type(error)


_COMPATIBLE = st.sampled_from(
    [
        *"0123456789/-*() ",
        "\uff11",
        "\uff13",
        "\uff0f",
        "\u2013",
        "\u2212",
        "\uff0a",
        "\u00a0",
        "\u3000",
        "\uff08",
        "\uff09",
        "bar",
        "off",
        "\u2460",
        "\U0001d7d9",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_COMPATIBLE, max_size=14).map("".join), st.integers(1, 6), st.integers(1, 6))
def test_any_text_and_its_nfkc_form_parse_alike(text: str, d1: int, d2: int) -> None:
    assert _outcome(text, (d1, d2)) == _outcome(unicodedata.normalize("NFKC", text), (d1, d2))


# -- a fuzz: wrong plays made from legal ones, and the reason given checked against the board -----


def _mutations(text: str, rng: random.Random) -> str:
    parts = text.split()
    kind = rng.randrange(7)
    if kind == 0:  # change one number
        numbers = list(re.finditer(r"\d+", text))
        if numbers:
            hit = rng.choice(numbers)
            value = max(1, min(25, int(hit[0]) + rng.choice([-3, -2, -1, 1, 2, 3])))
            return text[: hit.start()] + str(value) + text[hit.end() :]
    if kind == 1:  # one move twice
        return " ".join([*parts, rng.choice(parts)])
    if kind == 2 and len(parts) > 1:  # one move left out
        parts.pop(rng.randrange(len(parts)))
        return " ".join(parts)
    if kind == 3:  # a stray extra move
        source = rng.randint(1, 25)
        return " ".join([*parts, f"{source}/{max(0, source - rng.randint(1, 6))}"])
    if kind == 4:  # a count on one move
        index = rng.randrange(len(parts))
        parts[index] = re.sub(r"\(\d\)$", "", parts[index]) + f"({rng.randint(2, 4)})"
        return " ".join(parts)
    if kind == 5:  # a move reversed
        index = rng.randrange(len(parts))
        points = parts[index].split("(")[0].replace("*", "").split("/")
        parts[index] = "/".join(reversed(points))
        return " ".join(parts)
    source = rng.randint(1, 25)  # one move of one random distance
    return f"{source}/{max(0, source - rng.randint(1, 12))}"


def _point(word: str) -> int:
    return BAR if word == "bar" else OFF if word == "off" else int(word)


def _fewest_dice(hop: tuple[int, int], dice: tuple[int, int]) -> int:
    """The fewest dice of the roll that move a checker along ``hop`` (bearing off may overshoot)."""
    distance, off = hop[0] - hop[1], hop[1] == OFF
    if dice[0] == dice[1]:
        return -(-distance // dice[0])
    if distance in dice or (off and max(dice) >= distance):
        return 1
    return 2


def _reason_is_true(position: Position, dice: tuple[int, int], text: str, message: str) -> None:
    """Check the claim the message makes, from the board and the typed moves alone."""
    segments = parse_segments(text)
    hops = [hop for s in segments for _ in range(s.count) for hop in itertools.pairwise(s.path)]
    double = dice[0] == dice[1]
    dice_count = 4 if double else 2
    sums = {dice[0] * k for k in range(1, 5)} if double else {dice[0], dice[1], dice[0] + dice[1]}
    mine = {p: position.checker_at(p)[0] for p in range(1, 26)}
    arriving: Counter[int] = Counter()
    leaving: Counter[int] = Counter()
    for s in segments:
        arriving[s.path[-1]] += s.count
        leaving[s.path[0]] += s.count
    reason = message.split(" (you typed")[0]
    if m := re.match(
        r"too many moves: your \d-\d plays (\d) dice, one move each, and that is "
        r"(\d+) moves",
        reason,
    ):
        assert int(m[1]) == dice_count < int(m[2]) == len(hops)
    elif m := re.match(r"too many moves: that takes (\d+) dice", reason):
        assert int(m[1]) > dice_count
        assert sum(_fewest_dice(hop, dice) for hop in hops) > dice_count
    elif m := re.match(r"(\w+)/(\w+) is (\d+) pips?, which your", reason):
        distance = int(m[3])
        assert distance not in sums
        assert m[2] != "off" or distance > max(sums)
    elif m := re.match(r"(\d+) is closed: your opponent has (\d+) checkers there", reason):
        point, count = int(m[1]), int(m[2])
        assert position.checker_at(point)[1] == count >= 2
        assert any(point in s.path[1:] for s in segments)
    elif m := re.match(r"you have no checker on (\d+)", reason):
        point = int(m[1])
        assert mine[point] == 0 and not arriving[point] and leaving[point]
    elif m := re.match(r"you have only (a checker|(\d+) checkers) on (the bar|\d+)", reason):
        point = BAR if m[3] == "the bar" else int(m[3])
        have = 1 if m[1] == "a checker" else int(m[2])
        assert mine[point] == have < leaving[point] and not arriving[point]
    elif m := re.match(r"you have no checker on the bar", reason):
        assert mine[BAR] == 0 and leaving[BAR]
    elif m := re.match(
        r"you move (\d+) checkers from (\w+), but you have (none|\d+) there and "
        r"only (\d+) more arrives?",
        reason,
    ):
        point = BAR if m[2] == "bar" else int(m[2])
        have = 0 if m[3] == "none" else int(m[3])
        assert leaving[point] == int(m[1]) > have + arriving[point]
        assert mine[point] == have and arriving[point] == int(m[4]) > 0
    elif m := re.match(r"you have (a checker|\d+ checkers) on the bar: enter", reason):
        assert mine[BAR] and sum(s.count for s in segments if s.path[0] == BAR) < mine[BAR]
    elif reason.startswith("you can't bear off while a checker is outside"):
        assert any(s.path[-1] == OFF for s in segments)
        after = Counter(mine)
        for s in segments:
            after[s.path[0]] -= s.count
            after[s.path[-1]] += s.count
        assert any(after[p] > 0 for p in range(7, 26))
    elif m := re.match(
        r"your (\d)-(\d) plays one \d and one \d, so (\w+)/(\w+) can be played "
        r"only once",
        reason,
    ):
        hop = (_point(m[3]), _point(m[4]))
        assert not double and Counter(hops)[hop] == len(hops) == 2
        assert hop[0] - hop[1] in dice or (hop[1] == OFF and max(dice) > hop[0])
    elif m := re.match(
        r"your \d-\d plays one \d and one \d: (\w+)/(\w+) and (\w+)/(\w+) both "
        r"need the (\d)",
        reason,
    ):
        die = int(m[5])
        assert not double and len(hops) == 2
        for source, dest in ((m[1], m[2]), (m[3], m[4])):
            distance = _point(source) - _point(dest)
            assert distance == die or (dest == "off" and distance < die)
            other = sum(dice) - die
            assert distance != other and not (dest == "off" and distance < other)
    elif m := re.match(r"(\S+) goes backwards", reason):
        [segment] = parse_segments(m[1])
        assert any(dest >= source for source, dest in itertools.pairwise(segment.path))
    elif m := re.match(r"you must play (both dice|one|two|three|all four)", reason):
        assert len(hops) < dice_count
    elif m := re.match(r"you must play the (\d) when only one die can be played", reason):
        assert len(hops) == 1
    elif m := re.match(r"(\w+)/(\w+) is blocked: ([\d and]+) (is|are) closed", reason):
        hop = (_point(m[1]), _point(m[2]))
        assert hop in hops and hop[0] - hop[1] not in dice
        assert all(position.checker_at(int(p))[1] >= 2 for p in m[3].split(" and "))
    elif m := re.match(
        r"(\d)/off needs a \d: a bigger number bears off only from your highest "
        r"point, and you have a checker on (\d)",
        reason,
    ):
        source, higher = int(m[1]), int(m[2])
        assert higher > source and (source, OFF) in hops
        after = Counter(mine)
        for s in segments:
            after[s.path[0]] -= s.count
            after[s.path[-1]] += s.count
        assert after[higher] > 0
    elif reason.startswith(("only one die can be played", "that is not a legal play")):
        pass
    else:
        raise AssertionError(f"an unchecked reason: {message}")
    for example in re.findall(r"e\.g\. (.+)$", reason):
        assert position.parse_play(example, dice) in position.legal_plays(*dice)


@settings(max_examples=1500, deadline=None)
@given(st.integers(0, len(_POSITIONS) - 1), st.integers(0, 2**32))
def test_refusals_of_near_miss_plays_state_true_reasons(index: int, seed: int) -> None:
    position, dice = _POSITIONS[index]
    plays = position.legal_plays(*dice)
    rng = random.Random(seed)
    base = rng.choice(plays)
    text = _mutations(base.notation if base.steps else "24/23", rng)
    try:
        play = position.parse_play(text, dice)
    except (InvalidMoveError, AmbiguousMoveError):
        return
    except IllegalMoveError as error:
        # A refusal shows no play of its own (the first legal one, often poor, reads as advice).
        assert "e.g." not in str(error) and "legal plays include" not in str(error), error
        if not plays[0].steps:
            return
        _reason_is_true(position, dice, text, str(error))
        return
    assert play in plays
