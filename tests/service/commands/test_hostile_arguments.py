"""Every command that reads an argument, fed hostile numbers and text (digits of other scripts
that ``isdigit()`` accepts and ``int()`` refuses, numbers past every column's range, thousands
of digits, signs, fractions, markup): each line gets at most one short reply, the console goes
on, and nothing in the database changes.

The grammar is sampled with a fixed seed (``HOSTILE_EXAMPLES`` lines; 400 by default, a few
seconds); ``HOSTILE_EXAMPLES=6000 pytest tests/service/commands/test_hostile_arguments.py``
runs the full matrix."""

from __future__ import annotations

import os
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bot.console import ConsoleClock
from bot.service.commands.registry import COMMANDS
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store, schema
from tests.service.console_lines import ConsoleTable
from tests.service.fake_analyst import FakeAnalyst, result
from tests.service.review.test_review import DECISIONS

EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "400"))
MESSAGE_LIMIT = 2_000

# Digits that str.isdigit() accepts and int() refuses, signs and fractions, and numbers no column
# holds. (Decimal digits of any script are numbers: test_digits_of_every_script_are_numbers.)
NUMBERS = (
    "፩",  # Ethiopic one: a digit, not a decimal
    "፲",  # Ethiopic ten: numeric, not a digit
    "\u3007",  # ideographic zero: numeric, not a digit
    "½",
    "௰",
    "0",
    "-1",
    "+3",
    "2.5",
    "1e9",
    "0x10",
    "99999999999999999999",
    "2147483648",
    "9223372036854775808",
    "9" * 5_000,
    "1" + "0" * 40,
    "3\u200b",
    "#፩",
    "#99999999999999999999",
    "፩.1",
    "1.፩",
    "1.99999999999999999999",
    "99999999999999999999.1",
    "-5.-1",
)
# Times may be fractions (``clock 1.5``, ``days 2.5``, ``start 2.5h``): those are not hostile
# there.
DURATIONS = tuple(n for n in NUMBERS if n not in ("2.5", "1.99999999999999999999"))
TEXTS = (
    "**bold** @everyone",
    "\u202eevil",
    "x" * 3_000,
    "`code`",
    "<@123>",
    "\x00",
)
# Where numbers go in each command (``{n}``: one of NUMBERS, ``{t}``: one of TEXTS).
FORMS = {
    "challenge": [
        "@bob {n}",
        "@bob {n} points",
        "@bob {n}pt",
        "@bob money auto {n}",
        "@bob 3 clock {n}",
        "@bob 3 clock {n}m",
        "bot {n}",
        "@bob {t}",
    ],
    "move": ["{n}/7", "13/{n}", "{n}-{n}", "bar/{n}", "{t}"],
    "resign": ["{n}", "{t}"],
    "export": ["{n}", "#{n}", "{t}"],
    "analysis": ["{n}", "#{n}", "{t}"],
    "show": ["{n}", "XGID={n}", "{t}"],
    "eval": ["{n}", "{t}"],
    "tournament": [
        "create X knockout {n}",
        "create X swiss {n} rounds 1",
        "create X swiss 3 rounds {n}",
        "create X knockout 3 limit {n}",
        "create X knockout 3 days {n}",
        "create X knockout 3 clock {n}",
        "create X knockout 3 start {n}h",
        "#{n}",
        "{n}",
        "Spring result {n}.1 @carol why",
        "Spring result 1.{n} @carol why",
        "Spring result {n} @carol why",
        "Spring remove @{n} why",
        "{t}",
        "create {t} knockout 3",
    ],
    "join": ["{n}", "#{n}", "{t}"],
    "leave": ["{n}", "#{n}", "{t}"],
    "review": ["{n}", "1 {n}", "{n} 1", "errors {n}", "#{n}", "{n} {n}", "{t}"],
    "drill": ["{n}", "{n}/7", "{t}"],
    "puzzle": ["{n}", "{n}/7", "{t}"],
    "stats": ["@{n}", "{t}"],
    "help": ["{n}", "{t}"],
    "settings": ["language {n}", "{n}", "language {t}", "{t}"],
}


def test_every_command_with_an_argument_is_fed() -> None:
    assert {c.name for c in COMMANDS if c.arguments} == set(FORMS)


def lines(count: int) -> list[str]:
    rng = random.Random(29_30)
    every = [(name, form) for name, forms in FORMS.items() for form in forms]
    out = []
    for i in range(count):
        name, form = every[i % len(every)]
        numbers = DURATIONS if any(w in form for w in ("clock", "days", "start")) else NUMBERS
        text = form.replace("{n}", rng.choice(numbers), 1).replace("{n}", rng.choice(numbers))
        out.append(f"!{name} {text.replace('{t}', rng.choice(TEXTS))}".rstrip())
    return out


class Hostile(ConsoleTable):
    """A server with a finished, analysed match (alice vs bob in #general), a match being played
    (carol vs dave in #live, carol to act) and a knockout signing up (Spring, in #lobby)."""


@pytest.fixture
async def hostile(tmp_path: Path) -> AsyncIterator[Hostile]:
    store = await Store.open(tmp_path / "hostile.sqlite3")
    service = TableService(
        store,
        settings=Settings(analysis_auto=True),
        dice=seeded_dice(5),
        clock=ConsoleClock(1_790_000_000.0),
        images=False,
        engine=FakeAnalyst(replace(result(), decisions=DECISIONS)),
    )
    table = Hostile(service)
    await table.resigned_match()
    await table.say("#live carol: !challenge @dave 3")
    await table.say("#live dave: !accept")
    assert "opens a tournament" in await table.say(
        "#lobby org: !tournament create Spring knockout 3"
    )
    assert "joins" in await table.say("#lobby carol: !join")
    try:
        yield table
    finally:
        service.close()
        await store.close()


async def held(store: Store) -> dict[str, int]:
    """A fingerprint of everything a command could change: every table's rows, every match's
    version."""
    out = {}
    for table in schema.metadata.sorted_tables:
        row = await store.fetch_one(select(func.count()).select_from(table))
        out[table.name] = int(row[0]) if row else 0
    versions = await store.fetch_all(select(schema.matches.c.id, schema.matches.c.version))
    out.update({f"match {row[0]} version": int(row[1]) for row in versions})
    return out


async def test_hostile_arguments_get_one_short_refusal_and_change_nothing(
    hostile: Hostile,
) -> None:
    store = hostile.service.store
    before = await held(store)
    for line in lines(EXAMPLES):
        for who, channel in (("carol", "live"), ("alice", "general")):
            said = await hostile.say(f"#{channel} {who}: {line}")
            replies = [part for part in said.split("\n[#") if part]
            assert len(replies) <= 1, (line, said)
            assert len(said) <= MESSAGE_LIMIT + 100, (line, said[:300])
            assert "Traceback" not in said and "went wrong" not in said, (line, said)
        assert await held(store) == before, line


async def test_digits_of_every_script_are_numbers(hostile: Hostile) -> None:
    said = await hostile.say("#other alice: !challenge @bob ٣")
    assert "3-point match" in said
    said = await hostile.say("#other alice: !cancel")
    said = await hostile.say("#other alice: !challenge @bob ३ clock ١.٥")  # noqa: RUF001 (Arabic-Indic digits)
    assert "3-point match on the clock (90 s per point" in said, said
    said = await hostile.say("#general alice: !review ١ ٢")  # noqa: RUF001 (Arabic-Indic digits)
    assert "decision 2/" in said, said
