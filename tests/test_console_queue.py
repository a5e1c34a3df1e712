"""A bot turn queued behind others, in the console: the line's replies say it is queued, then
the bot's turn prints as soon as it is taken (text and JSON)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from bot.console import DEFAULT_CHANNEL, SERVER, Console
from bot.i18n.core import ENGLISH
from bot.i18n.gnubg import QUEUE_DONE
from bot.service.gnubg.opponent import queued_text
from bot.service.models import Place
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.fake_engine import FakeEngine

PLACE = Place(SERVER, DEFAULT_CHANNEL)


async def queued_console(store: Store, *, as_json: bool) -> tuple[Console, io.StringIO]:
    service = TableService(
        store, settings=Settings(), dice=seeded_dice(5), images=False, engine=FakeEngine()
    )
    service.opponent.queue_limit = 0  # every bot turn is queued, as when many are under way
    out = io.StringIO()
    return Console(service, out, images=None, as_json=as_json), out


async def to_alices_move(shell: Console) -> str:
    await shell.handle("alice: !challenge bot 3")
    while True:
        table = await shell.service.table(PLACE)
        assert table is not None and table.match.turn == 0
        if table.match.phase == "move":
            return table.match.legal_plays()[0].notation
        await shell.handle("alice: !roll" if table.match.phase == "roll" else "alice: !take")


async def test_a_queued_turn_prints_when_taken(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "c.sqlite3")
    try:
        shell, out = await queued_console(store, as_json=False)
        play = await to_alices_move(shell)
        out.truncate(0)
        out.seek(0)
        await shell.handle(f"alice: !move {play}")
        lines = [line for line in out.getvalue().splitlines() if line.startswith("[#")]
        said = [line.removeprefix(f"[#{DEFAULT_CHANNEL}] bot: ") for line in lines]
        assert said[0].startswith("alice plays")
        assert said[1] == queued_text(0, language=ENGLISH)
        assert said[-2] == QUEUE_DONE("en")
        assert "GNU Backgammon" in said[-1]
        table = await shell.service.table(PLACE)
        assert table is not None and table.match.turn == 0  # alice's turn again
        assert await shell.service.unannounced() == []
    finally:
        await store.close()


async def test_in_json_the_line_holds_the_queued_turn(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "c.sqlite3")
    try:
        shell, out = await queued_console(store, as_json=True)
        play = await to_alices_move(shell)
        await shell.handle(f"alice: !move {play}")
        record = json.loads(out.getvalue().splitlines()[-1])
        texts = [reply["text"] for reply in record["replies"]]
        assert texts[0].startswith("alice plays") and texts[1] == queued_text(0, language=ENGLISH)
        assert texts[2] == QUEUE_DONE("en") and "GNU Backgammon" in texts[3]
        assert record["game"]["turn"] == "alice"
    finally:
        await store.close()
