"""The console against GNU Backgammon (the fake engine): ``!challenge bot`` starts a match, the
bot's turns print among the replies to the line that handed it the turn, and a turn it owed
when the console stopped is taken at the next line."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from bot.console import DEFAULT_CHANNEL, SERVER, Console
from bot.service.models import Place
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.fake_engine import FakeEngine


async def console(store: Store, engine: FakeEngine) -> tuple[Console, io.StringIO]:
    service = TableService(
        store, settings=Settings(), dice=seeded_dice(5), images=False, engine=engine
    )
    out = io.StringIO()
    return Console(service, out, images=None, as_json=True), out


def records(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


async def play_until_bot_owes(shell: Console) -> None:
    """alice acts until the bot must (its engine failing, it stays owed)."""
    for _ in range(10):
        game = await shell.service.game_view(shell_place())
        assert game is not None
        if game["turn"] == "GNU Backgammon":
            return
        if game["phase"] == "roll":
            await shell.handle("alice: !roll")
        else:
            table = await shell.service.table(shell_place())
            assert table is not None
            await shell.handle(f"alice: !move {table.match.legal_plays()[0].notation}")
    raise AssertionError("the bot never got the turn")


def shell_place() -> Place:
    return Place(SERVER, DEFAULT_CHANNEL)


async def test_challenge_bot_in_the_console(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "c.sqlite3")
    try:
        shell, out = await console(store, FakeEngine())
        await shell.handle("alice: !challenge bot 3 expert tutor")
        await shell.handle("alice: !hint")
        [start, hint] = records(out)
        said = [reply["text"] for reply in start["replies"]]
        assert "alice vs GNU Backgammon (expert): a 3-point match, with the tutor" in said[0]
        game = start["game"]
        assert isinstance(game, dict) and game["players"] == ["alice", "GNU Backgammon"]
        assert game["turn"] == "alice"
        assert hint["replies"][0]["text"].startswith(("Best plays", "Cube advice", "You can't"))
    finally:
        await store.close()


async def test_a_turn_owed_at_the_last_stop_is_taken_at_the_next_line(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "c.sqlite3")
    try:
        shell, out = await console(store, FakeEngine(failures=1000))
        await shell.handle("alice: !challenge bot 3")
        await play_until_bot_owes(shell)
        assert "could not take its turn" in out.getvalue()
        again, out = await console(store, FakeEngine())  # the console started again
        await again.handle("bob: !help hint")
        first, help_ = records(out)
        assert first["input"] == "" and first["channel"] == "general"
        assert "GNU Backgammon" in first["replies"][0]["text"]
        assert first["game"]["turn"] == "alice"
        assert "hint" in help_["replies"][0]["text"]
    finally:
        await store.close()


async def test_one_console_user_plays_at_most_three_bot_games_at_once(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "c.sqlite3")
    try:
        shell, out = await console(store, FakeEngine())
        for channel in ("t1", "t2", "t3", "t4"):
            await shell.handle(f"[#{channel}] alice: !challenge bot 1 worldclass")
        said = [[reply["text"] for reply in record["replies"]] for record in records(out)]
        assert all("alice vs GNU Backgammon (worldclass)" in texts[0] for texts in said[:3])
        assert said[3] == [
            "You already play 3 games against the bot (#t1, #t2, #t3): finish or resign one "
            "before you start another."
        ]
        await shell.handle("[#t4] bob: !challenge bot 1")  # another user is not held back
        assert "bob vs GNU Backgammon" in records(out)[-1]["replies"][0]["text"]
    finally:
        await store.close()
