"""Dice: the derivation rule, its fairness, and checking a revealed seed against a match."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest

from bot.rules import (
    DiceExhaustedError,
    Match,
    Moved,
    OpeningRoll,
    Rolled,
    ScriptedDice,
    VerifiableDice,
    derive_die,
    dice_from_data,
    dice_sequence,
    verify_seed,
)
from bot.rules.randomplay import Policy, random_match

DOCS = Path(__file__).resolve().parents[2] / "docs" / "dice.md"

# chi-square critical values at p = 0.001
CHI2_5 = 20.515
CHI2_35 = 66.619


def reference_die(seed: bytes, n: int) -> int:
    """The rule as docs/dice.md states it, written out independently."""
    digest = hashlib.sha256(seed + n.to_bytes(8, "big")).digest()
    while True:
        for byte in digest:
            if byte < 252:
                return byte % 6 + 1
        digest = hashlib.sha256(digest).digest()


def chi_square(counts: Counter[object], cells: int, total: int) -> float:
    expected = total / cells
    return (
        sum((counts[cell] - expected) ** 2 / expected for cell in counts)
        + (cells - len(counts)) * expected
    )


def test_sixty_thousand_seeded_rolls_pass_chi_square() -> None:
    dice = VerifiableDice.seeded("chi-square")
    rolls = [(dice.die(2 * n), dice.die(2 * n + 1)) for n in range(60_000)]
    faces: Counter[object] = Counter(die for roll in rolls for die in roll)
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert chi_square(faces, 6, 120_000) < CHI2_5
    pairs: Counter[object] = Counter(rolls)
    assert chi_square(pairs, 36, 60_000) < CHI2_35
    doubles = sum(1 for first, second in rolls if first == second)
    assert abs(doubles / 60_000 - 1 / 6) < 0.01


def test_derivation_matches_the_documented_rule() -> None:
    seed = bytes(range(32))
    assert [derive_die(seed, n) for n in range(200)] == [reference_die(seed, n) for n in range(200)]
    assert dice_sequence(seed.hex(), 50) == [reference_die(seed, n) for n in range(50)]


def test_bytes_that_would_bias_the_die_are_skipped() -> None:
    seed = b"rejection sampling test seed 01"
    for n in range(2000):
        digest = hashlib.sha256(seed + n.to_bytes(8, "big")).digest()
        if digest[0] >= 252:
            kept = next(byte for byte in digest if byte < 252)
            assert derive_die(seed, n) == kept % 6 + 1
            return
    pytest.fail("no digest starting with a rejected byte in 2000 tries")


def test_commitment_and_verification() -> None:
    dice = VerifiableDice.generate()
    assert len(dice.seed) == 32
    assert dice.commitment == hashlib.sha256(dice.seed).hexdigest()
    assert verify_seed(dice.reveal(), dice.commitment)
    assert verify_seed(dice.reveal(), dice.commitment.upper())
    assert not verify_seed(VerifiableDice.generate().reveal(), dice.commitment)
    assert not verify_seed("not hex", dice.commitment)
    assert VerifiableDice.generate() != dice


def test_revealed_seed_reproduces_every_roll_of_a_match() -> None:
    match = random_match(21, 5, Policy(resign=0.01, double=0.1))
    assert match.is_over
    seed_hex = match.revealed_seed
    assert seed_hex is not None
    assert verify_seed(seed_hex, match.commitment)
    # every die, in the order the match used them
    dice = dice_sequence(seed_hex, match.dice_used)
    used: list[int] = []
    for event in match.record:
        if isinstance(event, OpeningRoll):
            used.extend(event.dice)
        elif isinstance(event, Rolled):
            pair = dice[len(used) : len(used) + 2]
            assert event.dice == (max(pair), min(pair))  # a roll is shown higher die first
            used.extend(pair)
    assert used == dice
    # and the plays were made with them
    moved = [event for event in match.record if isinstance(event, Moved)]
    assert moved and all(1 <= die <= 6 for event in moved for die in event.dice)


def test_seed_is_secret_until_the_end() -> None:
    match = Match.start(3, dice=VerifiableDice.seeded(1))
    assert match.revealed_seed is None
    assert match.commitment == VerifiableDice.seeded(1).commitment
    over = match.resign(match.on_roll, 3).accept_resignation(1 - match.on_roll)
    assert over.is_over and over.revealed_seed == VerifiableDice.seeded(1).reveal()


def test_readme_snippet_runs() -> None:
    text = DOCS.read_text()
    code = text.split("```python", 1)[1].split("```", 1)[0]
    match = random_match(3, 3)
    seed_hex = match.revealed_seed
    assert seed_hex is not None
    code = code.replace("<revealed seed>", seed_hex).replace("<commitment>", match.commitment)
    namespace: dict[str, object] = {"print": lambda *args: None}
    exec(code, namespace)
    dice = namespace["dice"]
    assert isinstance(dice, list) and dice[: match.dice_used] == dice_sequence(
        seed_hex, match.dice_used
    )
    assert namespace["rolls"] == list(zip(dice[0::2], dice[1::2], strict=True))


def test_scripted_dice() -> None:
    dice = ScriptedDice.rolls((6, 5), "31")
    assert [dice.die(n) for n in range(4)] == [6, 5, 3, 1]
    with pytest.raises(DiceExhaustedError):
        dice.die(4)
    with pytest.raises(ValueError):
        ScriptedDice.rolls((7, 1))
    with pytest.raises(ValueError):
        ScriptedDice.rolls((1, 2, 3))
    assert dice_from_data(dice.to_data()) == dice


def test_sources_round_trip_through_data() -> None:
    dice = VerifiableDice.seeded(9)
    assert dice_from_data(dice.to_data()) == dice
    with pytest.raises(ValueError):
        dice_from_data({"kind": "dice-shaker"})
    with pytest.raises(ValueError):
        VerifiableDice(b"short")
