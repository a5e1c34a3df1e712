"""``python -m bot console``: the same table commands as Discord, driven from a terminal.

Each input line is ``[#channel] name: text``, e.g. ``alice: !challenge @bob 3``. Blank lines and
lines starting with ``;`` are skipped. A line ``~ 25h`` (units ``s``, ``m``, ``h``, ``d``) moves
the console's clock forward and lets whatever fell due happen (reminders, clocks running out,
challenges expiring; claims become possible); ``--clock 2026-11-22T10:00:00`` starts the clock
at that time (then it moves only by ``~``; UTC unless the time says its zone).
Users and channels come into being when first named.
A line ``bob: [accept]`` presses the Accept button of the newest message in the channel that has
one, as a Discord user would; ``bob: [accept c1]`` presses it on the question ``c1`` (a key as
button ids carry it, e.g. an old message's).
A reply that shows a background job (an analysis) is followed to its end before the next line:
its progress is printed as it goes, then its outcome (in JSON, the outcome joins the replies);
meanwhile the analysis queue is looked at every ``DEADLINE_POLL_SECONDS``, so a job whose runner
died is taken over once its lease lapses.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from bot import event_loop
from bot.i18n.core import ENGLISH, LANGUAGES, Language, language_of
from bot.rules.notation import decimal_number
from bot.service.commands.registry import COMMANDS
from bot.service.commands.schema import Button
from bot.service.keys import Key, SignupKey, parse_key
from bot.service.lifetime import StartError, open_service
from bot.service.matches.threads import Opened
from bot.service.models import STORE_TROUBLE, Job, Place, Reply, User, store_trouble
from bot.service.records.durations import UNIT_SECONDS
from bot.service.table import TableService, seeded_dice, text_board
from bot.settings import Settings, SettingsError, database_setting

SERVER = "console"
DEFAULT_CHANNEL = "general"
# A name is words (letters, digits, . _ -): a command typed without one, e.g. `!eval XGID=...:0:0`,
# gets the usage line instead of running as a user named "!eval XGID=...".
# The channel as typed (`#t1 alice: ...`) or as the console prints it (`[#t1] alice: ...`).
_LINE = re.compile(
    r"^\s*(?:(?:#(?P<channel>[\w-]+)|\[#(?P<printed>[\w-]+)\])\s+)?"
    r"(?P<name>[\w.-]+(?: [\w.-]+)*)\s*:\s?(?P<text>.*)$"
)


_SHIFT = re.compile(r"^~\s*([\d.]+)\s*([smhd])$", re.IGNORECASE)
_PRESS = re.compile(r"^\[\s*(?P<action>[a-z]{1,40})(?:\s+(?P<key>[^\s`\]]{1,40}))?\s*\]$", re.I)


class ConsoleClock:
    """The console's time: the real time, or ``start`` (frozen) when given; ``~`` lines move
    it forward."""

    def __init__(self, start: float | None = None) -> None:
        self._start = start
        self._offset = 0.0

    def __call__(self) -> float:
        return (time.time() if self._start is None else self._start) + self._offset

    def advance(self, seconds: float) -> None:
        self._offset += seconds


def read_shift(text: str) -> float | None:
    """Seconds of a ``~ 25h`` line; None when it isn't one."""
    found = _SHIFT.match(text.strip())
    number = decimal_number(found[1]) if found else None
    return None if found is None or number is None else number * UNIT_SECONDS[found[2].lower()]


def read_start(text: str) -> float:
    """``--clock``'s ISO 8601 time as a timestamp (UTC unless it names its zone)."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an ISO 8601 time, e.g. 2026-11-22T10:00:00"
        ) from None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def read_locale(text: str) -> Language:
    """``--locale``'s language: ours (``de``) or Discord's code for it (``es-ES``)."""
    language = language_of(text)
    if language is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a language the bot speaks: {', '.join(LANGUAGES)}"
        )
    return language


def parse_line(line: str) -> tuple[str, str, str] | None:
    """(channel, user name, text) of one input line, or None when it has no ``name:``."""
    match = _LINE.match(line)
    if match is None:
        return None
    channel = match["channel"] or match["printed"] or DEFAULT_CHANNEL
    return channel, match["name"].strip(), match["text"].strip()


def console_user(name: str, language: Language = ENGLISH) -> User:
    """The user a line's ``name`` is; ``language``: the one their command is answered in
    (English for a user named in a command)."""
    return User(id=name.lower(), name=name, language=language)


def buttons_of(reply: Reply) -> list[tuple[str, Button]]:
    """(action, button) of each button ``reply`` shows (as on Discord)."""
    if reply.decision is None or reply.decision_key is None:
        return []
    return [
        (command.name + button.word, button)
        for command, button in COMMANDS.buttons()
        if button.decision is reply.decision and (reply.money_game or not button.money_only)
    ]


def lookup_user(word: str) -> User | None:
    name = word.strip().removeprefix("@").strip("<>")
    return console_user(name) if re.fullmatch(r"[\w.-]+", name) else None


def _last_file_number(folder: Path | None) -> int:
    """The highest ``NNNN-`` number already in ``folder``, so a new run never overwrites."""
    if folder is None or not folder.is_dir():
        return 0
    numbers = [int(m[1]) for p in folder.iterdir() if (m := re.match(r"^(\d+)-", p.name))]
    return max(numbers, default=0)


@dataclass(frozen=True, slots=True)
class _Shown:
    reply: Reply
    image: str | None
    file: str | None
    channel: str


class ConsoleChannels:
    """The console's :class:`ThreadOpener`: a tournament's match (its sign-up's key) gets a
    channel of its own, named as Discord names its thread (the words before ``·``):
    ``spring-r1-2``. Other matches are played where they start, as the console always did."""

    async def open(self, place: Place, name: str, key: Key | None) -> Opened:
        if not isinstance(key, SignupKey):
            return Opened(None)
        words = re.sub(r"[^\w]+", "-", name.split("·")[0].strip().lower()).strip("-")
        return Opened(Place(place.server_id, words or "match"))

    async def discard(self, thread: Place) -> None:
        """Nothing to remove: a console channel is only a name."""


class Console:
    def __init__(
        self,
        service: TableService,
        out: TextIO,
        *,
        images: Path | None,
        as_json: bool,
        clock: ConsoleClock | None = None,
        locale: Language | None = None,
    ) -> None:
        """``locale``: every line speaks it, as a Discord user's interactions in that locale
        do (None: the server's language, as typed commands on Discord)."""
        self.service = service
        self.locale = locale
        self.clock = clock
        self.out = out
        self.images = images
        self.as_json = as_json
        self.files_written = _last_file_number(images)
        self.resumed = False  # the turns GNU Backgammon owed at startup: taken at the first line
        self.channels = ConsoleChannels()
        # The key of the newest question shown with each button, by channel and action.
        self.buttons: dict[tuple[str, str], Key] = {}

    def _save(self, name: str, data: bytes) -> str | None:
        """Write a file into ``--images`` (numbered, so nothing is overwritten)."""
        if self.images is None:
            return None
        self.images.mkdir(parents=True, exist_ok=True)
        self.files_written += 1
        path = self.images / f"{self.files_written:04d}-{name}"
        path.write_bytes(data)
        return str(path.resolve())

    async def handle(self, line: str) -> None:
        """Carry out one input line and print what the bot says. A database another program
        holds, a full disk or a database server not answering is said in one line and the
        console goes on (each line tries the server again)."""
        stripped = line.strip()
        if not stripped or stripped.startswith(";"):
            return
        try:
            await self._handle(stripped)
        except STORE_TROUBLE as error:
            parsed = parse_line(stripped)
            channel, name, text = parsed if parsed else (DEFAULT_CHANNEL, "", stripped)
            # the server's language can't be read from a database in trouble
            said = store_trouble(error, self.locale or ENGLISH)
            self._emit(channel, name, text, [(channel, said)], None)

    async def _handle(self, stripped: str) -> None:
        if not self.resumed:
            await self._resume_engine()
            self.resumed = True
        if stripped.startswith("~"):
            await self._move_time(stripped)
            return
        parsed = parse_line(stripped)
        if parsed is None:
            usage = Reply(
                "Lines look like `name: !command`, `#channel name: !command` or "
                "`[#channel] name: !command`, e.g. `alice: !challenge @bob 3`.",
                private=True,
            )
            self._emit(DEFAULT_CHANNEL, "", stripped, [(DEFAULT_CHANNEL, usage)], None)
            return
        channel, name, text = parsed
        place = Place(SERVER, channel)
        user = console_user(name, self.locale or await self.service.server.languages.of(SERVER))
        if pressing := _PRESS.match(text):
            action, key = pressing["action"].lower(), pressing["key"]
            replies = await self._press(place, user, action, key)
        else:
            replies = await self.service.run(
                place, user, text, users=lookup_user, threads=self.channels
            )
        await self._show(place, name, text, replies)

    async def _press(self, place: Place, user: User, action: str, typed: str | None) -> list[Reply]:
        """A press of the button ``action``: on the question ``typed``, else on the newest
        message of ``place`` that shows that button."""
        key = (
            parse_key(typed) if typed is not None else self.buttons.get((place.channel_id, action))
        )
        if key is None:
            said = (
                f"`{typed}` is not a question's key, e.g. `m7.53` or `c12`."
                if typed is not None
                else f"No message in #{place.channel_id} has a `{action}` button."
            )
            return [Reply(said, private=True)]
        pressed = await self.service.press(place, user, action, key, threads=self.channels)
        return pressed.replies

    async def _move_time(self, line: str) -> None:
        """``~ 25h``: move the clock, then show whatever fell due, place by place."""
        seconds = read_shift(line)
        if seconds is None or self.clock is None:
            said = (
                "Move the clock with `~ 25h` (units s, m, h, d)."
                if self.clock is not None
                else "This console's clock can't be moved."
            )
            refusal = Reply(said, private=True)
            self._emit(DEFAULT_CHANNEL, "", line, [(DEFAULT_CHANNEL, refusal)], None)
            return
        self.clock.advance(seconds)
        moment = datetime.fromtimestamp(self.clock(), UTC).isoformat(timespec="seconds")
        now = Reply(f"(time) It is now {moment}.")
        by_place: dict[Place, list[Reply]] = {}
        due = await self.service.due(threads=self.channels)
        for place, reply in due:
            by_place.setdefault(place, []).append(reply)
        await self.service.sent(reply for _, reply in due)  # printed below: sent
        if not self.as_json:
            self._emit(DEFAULT_CHANNEL, "", line, [(DEFAULT_CHANNEL, now)], None)
            for place, replies in by_place.items():
                await self._show(place, "", line, replies)
            return
        # One object for the line: each reply says its channel when it is not the object's.
        channel = next(iter(by_place)).channel_id if len(by_place) == 1 else DEFAULT_CHANNEL
        told: list[tuple[str, Reply]] = [(channel, now)]
        for place, replies in by_place.items():
            told += [(place.channel_id, reply) for reply in await self._finished(place, replies)]
        game = await self.service.game_view(Place(SERVER, channel))
        self._emit(channel, "", line, told, game)

    async def _resume_engine(self) -> None:
        """Show the turns GNU Backgammon owed (it stopped while thinking, or failed)."""
        owed = await self.service.resume_engine(lambda place: place.server_id == SERVER)
        for place, replies in owed.items():
            await self._show(place, "", "", replies)

    async def _show(self, place: Place, name: str, text: str, replies: list[Reply]) -> None:
        channel = place.channel_id
        replies = replies + await self.service.open_rounds(replies, self.channels)
        if self.as_json:
            said = [
                (_where(reply, channel), reply) for reply in await self._finished(place, replies)
            ]
            self._emit(channel, name, text, said, await self.service.game_view(place))
            return
        game = await self.service.game_view(place)
        self._emit(
            channel, name, text, [(_where(reply, channel), reply) for reply in replies], game
        )
        later: list[Reply] = []
        jobs = self._jobs(replies)
        while jobs:
            [outcome, *more] = await self._outcomes(channel, jobs.pop(0))
            self._emit(channel, name, text, [(channel, outcome)], None)
            if more:  # a queued bot turn: its replies, as new messages
                self._emit(channel, name, text, [(_where(r, channel), r) for r in more], None)
            later += more
            jobs += self._jobs(more)  # the analysis of a match the bot's turn ended
        await self._announced([*replies, *later])
        shown_later = any(reply.board_viewer is not None for reply in later)
        await self._boards(place, later if shown_later else replies)

    async def _finished(self, place: Place, replies: list[Reply]) -> list[Reply]:
        """``replies`` and the outcomes of the jobs they started (for JSON: one object)."""
        outcomes: list[Reply] = []
        jobs = self._jobs(replies)
        while jobs:
            more = await self._outcomes(place.channel_id, jobs.pop(0))
            outcomes += more
            jobs += self._jobs(more[1:])
        await self._announced([*replies, *outcomes])
        return [*replies, *outcomes]

    @staticmethod
    def _jobs(replies: list[Reply]) -> list[Job]:
        return [reply.job for reply in replies if reply.job is not None and not reply.private]

    async def _announced(self, replies: list[Reply]) -> None:
        shown: dict[int, int] = {}  # printed is shown: the claim clock of whoever must act runs
        for reply in replies:
            if reply.announces is not None and not reply.private:
                match_id, version = reply.announces
                shown[match_id] = max(version, shown.get(match_id, 0))
        await self.service.mark_all_announced(shown)

    async def _outcomes(self, channel: str, job: Job) -> list[Reply]:
        """Wait for ``job`` to end (printing its progress, in text mode): its last message,
        then the replies a queued bot turn ends with."""
        shown = None
        outcomes: list[Reply] = []
        async for update in self._ticking(self.service.follow(job)):
            if outcomes or update.job is None:
                outcomes.append(update)
            elif not self.as_json and update.text != shown:
                self.out.write(f"[#{channel}] bot: (progress) {update.text}\n")
                self.out.flush()
                shown = update.text
        if not outcomes:
            raise RuntimeError(f"the job {job} ended without an outcome")
        return outcomes

    async def _ticking(self, updates: AsyncIterator[Reply]) -> AsyncIterator[Reply]:
        """``updates``, with the analysis queue looked at every deadline poll while none comes:
        a job whose runner died (a console killed while it ran it) is taken over once its
        lease lapses, as the bot's deadline poll would."""
        poll = self.service.settings.deadline_poll_seconds
        while True:
            step = asyncio.ensure_future(anext(updates, None))
            while not (await asyncio.wait({step}, timeout=poll))[0]:
                await self.service.tick_jobs()
            update = step.result()
            if update is None:
                return
            yield update

    def _emit(
        self,
        channel: str,
        name: str,
        text: str,
        replies: list[tuple[str, Reply]],
        game: dict[str, Any] | None,
    ) -> None:
        """Print what the bot said about one input line; ``replies`` by the channel each is
        said in (the line's own ``channel``, or another for what fell due elsewhere)."""
        for where, reply in replies:
            key = reply.decision_key
            if key is not None:
                for action, _ in buttons_of(reply):
                    self.buttons[(where, action)] = key
        shown = [
            _Shown(
                reply,
                self._save(f"{where}-board.png", reply.image) if reply.image else None,
                self._save(reply.file.filename, reply.file.data) if reply.file else None,
                where,
            )
            for where, reply in replies
        ]
        if self.as_json:
            record = {
                "channel": channel,
                "user": name,
                "input": text,
                "replies": [self._json_reply(s, channel) for s in shown],
                "game": game,
            }
            self.out.write(json.dumps(record) + "\n")
            self.out.flush()
            return
        for item in shown:
            mark = "(only you) " if item.reply.private else ""
            self.out.write(f"[#{item.channel}] bot: {mark}{item.reply.text}\n")
            if item.reply.file is not None and item.file is None:
                self.out.write(_file_text(item.reply.file.filename, item.reply.file.data) + "\n")
            for label, path in (("file", item.file), ("board", item.image)):
                if path:
                    self.out.write(f"  ({label}: {path})\n")
        self.out.flush()

    @staticmethod
    def _json_reply(shown: _Shown, channel: str) -> dict[str, Any]:
        said: dict[str, Any] = {"text": shown.reply.text, "image": shown.image, "file": shown.file}
        labels = [button.worded(shown.reply.language) for _, button in buttons_of(shown.reply)]
        if labels:  # as Discord shows them, in the reply's language
            said["buttons"] = labels
        if shown.channel != channel:
            said["channel"] = shown.channel
        return said

    async def _boards(self, place: Place, replies: list[Reply]) -> None:
        language = self.locale or await self.service.server.languages.of(SERVER)
        for reply in replies:
            if reply.board_viewer is None:
                continue
            table = await self.service.latest_table(place)
            if table is not None:
                self.out.write(text_board(table, reply.board_viewer, language) + "\n")
        self.out.flush()


def _where(reply: Reply, channel: str) -> str:
    """The channel ``reply`` is said in: its own place's (a tournament's match, its news), or
    the line's."""
    return reply.place.channel_id if reply.place is not None else channel


def _file_text(filename: str, data: bytes) -> str:
    """A file printed in the terminal: its text, or what it is when it is not text (a PNG)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return f"  ({filename}: {len(data)} bytes; --images DIR saves it)"


async def run_console(args: argparse.Namespace, lines: Iterable[str], out: TextIO) -> int:
    try:
        settings = Settings.load()
    except SettingsError as error:
        print(f"Bad setting: {error}", file=sys.stderr)
        return 2
    database = database_setting(args.db) if args.db else settings.database
    dice = seeded_dice(args.seed) if args.seed is not None else None
    if args.seed is not None:
        print(
            f"Dice are seeded with {args.seed}: deterministic, for testing only.", file=sys.stderr
        )
    clock = ConsoleClock(getattr(args, "clock", None))
    try:
        async with open_service(
            settings, database=database, dice=dice, images=args.images is not None, clock=clock
        ) as service:
            console = Console(
                service,
                out,
                images=Path(args.images) if args.images else None,
                as_json=args.json,
                clock=clock,
                locale=getattr(args, "locale", None),
            )
            for line in lines:
                await console.handle(line)
    except StartError as error:
        print(f"Can't start: {error}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot console", description="Play backgammon commands from standard input."
    )
    parser.add_argument("--db", help="SQLite file (default: BACKGAMMON_DB or ./backgammon.sqlite3)")
    parser.add_argument("--seed", type=int, help="deterministic dice (testing only)")
    parser.add_argument("--images", help="write board PNGs and other files to this folder")
    parser.add_argument("--json", action="store_true", help="one JSON object per input line")
    parser.add_argument(
        "--clock",
        type=read_start,
        metavar="ISO_TIME",
        help="start the clock at this time, e.g. 2026-11-22T10:00:00 (it then moves by ~ lines)",
    )
    parser.add_argument(
        "--locale",
        type=read_locale,
        help="answer in this language, as Discord does a user in that locale: "
        + ", ".join(LANGUAGES)
        + " (default: the server's, `!settings language`)",
    )
    args = parser.parse_args(argv)
    return event_loop.run(run_console(args, sys.stdin, sys.stdout))
