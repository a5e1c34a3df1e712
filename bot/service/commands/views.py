"""Looking: the board, pips, score and record of a match, the server's ratings, the help, and
the state adapters read (the open question, the match as data). None of these change a thing."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

from bot.i18n import help as help_words
from bot.i18n import play as say
from bot.i18n import records as ledger
from bot.i18n import reports as words
from bot.i18n.core import Language
from bot.rules.text import quote
from bot.service.commands.help import help_reply, unknown_command
from bot.service.commands.schema import CommandTable
from bot.service.gnubg.analysis_text import pr_text
from bot.service.keys import ChallengeKey, RematchKey
from bot.service.matches.challenges import Challenges
from bot.service.matches.presentation import (
    BoardImages,
    clock_now,
    ending_text,
    engine_record_text,
    game_data,
    lead_text,
    leaderboard_text,
    prompt_text,
    rematch_asked,
    score_text,
    stats_text,
    table_pending,
    typed,
)
from bot.service.matches.reading import DamagedMatch, DamagedRecord, MatchReader
from bot.service.models import (
    ENGINE_ID,
    Attachment,
    Decision,
    Pending,
    Place,
    Refusal,
    Reply,
    Table,
    User,
)
from bot.service.models import markdown_safe as md
from bot.settings import Settings
from bot.store import MatchRow, PrSummary, Store


def ids_engine(table: Table, seat: int) -> bool:
    """Whether ``seat`` is GNU Backgammon's (it answers nothing through buttons)."""
    return table.row.player_ids[seat] == ENGINE_ID


class Views:
    """Commands and queries that only read. The match commands run under the channel's lock
    (the facade's); the others need none."""

    def __init__(
        self,
        store: Store,
        repository: MatchReader,
        images: BoardImages,
        challenges: Challenges,
        settings: Settings,
        clock: Callable[[], float],
        commands: CommandTable,
    ) -> None:
        """``commands``: the table ``!help`` shows (the registry's)."""
        self._commands = commands
        self._store = store
        self._clock = clock
        self._repository = repository
        self._images = images
        self._challenges = challenges
        self._settings = settings

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    # -- a match (under the channel's lock) ----------------------------------------------------

    async def board(self, place: Place, user: User) -> list[Reply]:
        language = user.language
        table = await self._repository.require(place, latest=True, user=user, language=language)
        if isinstance(table, DamagedMatch):
            return [table.reply(language)]
        seat = table.seat(user)
        viewer = seat if seat is not None else table.match.on_roll
        prompt, _ = prompt_text(table, self._prefix, language=language)
        now = self._clock()
        text = f"{score_text(table.match, table.names, language=language)}\n{prompt}"
        clock = clock_now(table, now, language=language)
        if clock is not None:
            text += f"\n{clock}"
        if table.row.status != "playing":
            score = score_text(table.match, table.names, language=language)
            text = f"{ending_text(table, language=language)}\n{score}"
        shows = (table.row.id, table.row.version) if table.row.status == "playing" else None
        return [
            Reply(
                text,
                image=await self._images.board(table, viewer, now, language=language),
                board_viewer=viewer,
                announces=shows,
            )
        ]

    async def pips(self, place: Place, user: User) -> list[Reply]:
        language = user.language
        table = await self._repository.require(place, user=user, language=language)
        if isinstance(table, DamagedMatch):
            return [table.reply(language)]
        pips = table.match.pip_counts()
        names = table.names
        lead = lead_text(names, pips, language=language)
        return [
            Reply(
                say.PIP_COUNTS(
                    language, first=names[0], a=pips[0], second=names[1], b=pips[1], lead=lead
                )
            )
        ]

    async def score(self, place: Place, user: User) -> list[Reply]:
        language = user.language
        table = await self._repository.require(place, user=user, language=language)
        if isinstance(table, DamagedMatch):
            return [table.reply(language)]
        match, names = table.match, table.names
        owner = (
            say.CUBE_CENTRED(language)
            if match.cube_owner is None
            else say.CUBE_OWNED(language, name=names[match.cube_owner])
        )
        text = say.SCORE_LINE(
            language,
            score=score_text(match, names, language=language),
            game=match.game_number,
            cube=match.cube_value,
            owner=owner,
        )
        clock = clock_now(table, self._clock(), language=language)
        return [Reply("\n".join(line for line in (text, clock) if line))]

    async def export(
        self, place: Place, user: User, number: str | None = None, *, language: Language
    ) -> list[Reply]:
        """``!export [match number]``: this table's last match, or the one numbered (any
        match of this server): never another one than asked for."""
        if number:
            row = await self._repository.numbered(place, typed(number), "export", language=language)
            try:
                found = await self._repository.table_of(row, place)
            except DamagedRecord as damaged:
                return [await self._damaged_export(damaged.row, language=language)]
            assert found is not None  # a row that can't be read is a DamagedMatch
        else:
            try:
                found = await self._repository.require(place, latest=True, language=language)
            except DamagedRecord as damaged:
                return [await self._damaged_export(damaged.row, language=language)]
        if isinstance(found, DamagedMatch):
            return [await self._damaged_export(found.row, language=language)]
        return [await self._export(found, language=language)]

    async def _export(self, table: Table, *, language: Language) -> Reply:
        match = table.match
        lines = [
            words.EXPORT_MATCH(
                language, id=table.row.id, first=table.names[0], second=table.names[1]
            ),
            words.EXPORT_IDS(language, ids=f"{match.position_id()}:{match.match_id()}"),
            words.EXPORT_COMMITMENT(language, commitment=match.commitment),
        ]
        attachment = None
        if table.row.status == "playing":
            lines.append(words.EXPORT_LATER(language))
        else:
            seed = match.dice_source.reveal()
            lines += [
                words.EXPORT_SEED(language, seed=seed, last=match.dice_used - 1),
                words.CHECK_THE_DICE(language),
            ]
            mat = (await self._repository.full(table)).to_mat(table.plain)
            attachment = Attachment(f"match-{table.row.id}.mat", mat.encode("utf-8"))
        return Reply("\n".join(lines), file=attachment)

    async def _damaged_export(self, row: MatchRow, *, language: Language) -> Reply:
        """What the database holds of a match that can't be read: its row and action log as
        JSON (not its state while it is played: that holds the dice to come)."""
        data: dict[str, Any] = dataclasses.asdict(row)
        if row.status == "playing":
            data["state"] = "(withheld while the match is played: it holds the dice to come)"
        data["actions"] = [text for _, text in await self._store.matches.actions(row.id)]
        return Reply(
            say.EXPORT_DAMAGED(language, number=row.id),
            file=Attachment(
                f"match-{row.id}-damaged.json", json.dumps(data, indent=1).encode("utf-8")
            ),
        )

    # -- the server ---------------------------------------------------------------------------

    async def leaderboard(self, place: Place, user: User) -> list[Reply]:
        language = user.language
        top = await self._store.players.leaderboard(place.server_id, 10)
        rank = await self._store.players.rank(place.server_id, user.id) if top else None
        return [Reply(leaderboard_text(top, user.name, rank, self._prefix, language=language))]

    async def stats(self, place: Place, user: User, target: User | None) -> list[Reply]:
        language = user.language
        who = target or user
        player = await self._store.players.get(place.server_id, who.id)
        if player is None:
            p = self._prefix
            if target is None:
                return [Reply(ledger.NO_RECORD_YET(language, prefix=p))]
            return [Reply(ledger.NOT_A_PLAYER(language, name=md(who.name), prefix=p))]
        rank = await self._store.players.rank(place.server_id, who.id)
        counts = await self._store.players.match_counts(place.server_id, who.id)
        records = await self._store.players.against_engine(place.server_id, who.id)
        text = stats_text(player, rank, counts, language=language) + engine_record_text(
            records, who.id, language=language
        )
        analysed = PrSummary.of(player)
        if analysed is not None:
            text += " " + pr_text(
                analysed.matches, analysed.decisions, analysed.pr, language=language
            )
        played = await self._store.tournaments.record(place.server_id, who.id)
        if played.entered or played.playing:
            said = ledger.TOURNAMENTS_GOING_ON if played.playing else ledger.TOURNAMENTS
            text += said(language, entered=played.entered, won=played.won, playing=played.playing)
        if place.private:  # a record read in a DM: its games are on no server's leaderboard
            text += " " + ledger.PRIVATE_RECORD(language)
        return [Reply(text)]

    def help(self, topic: str | None, *, language: Language) -> list[Reply]:
        try:
            return [
                help_reply(
                    self._settings,
                    self._commands,
                    typed(topic) if topic else None,
                    language=language,
                )
            ]
        except KeyError:
            said = help_words.NO_SUCH_COMMAND(
                language, quoted=quote(topic or ""), prefix=self._prefix
            )
            return [Reply(said, private=True)]

    # -- state for adapters -------------------------------------------------------------------

    async def game_view(self, place: Place) -> dict[str, Any] | None:
        """The channel's match (or open challenge) as plain data, for the console's JSON."""
        table = await self._repository.table(place, latest=True, repair=False)
        challenge = await self._store.challenges.open(place.server_id, place.channel_id)
        if challenge is not None and (
            table is None or challenge.created_at >= table.row.created_at
        ):
            ids = (challenge.challenger_id, challenge.challenged_id)
            names = await self._repository.names(place, ids)
            return {
                "players": list(names),
                "match_length": challenge.match_length,
                "score": [0, 0],
                "crawford": False,
                "game_number": 0,
                "phase": "challenged",
                "turn": names[1],
                "dice": None,
                "cube": 1,
                "cube_owner": None,
                "position_id": None,
                "match_id": None,
                "winner": None,
            }
        if table is None:
            return None
        return game_data(table)

    async def unknown_command(
        self, place: Place, word: str, prefix: str, *, language: Language
    ) -> list[Reply]:
        """The answer to ``!word`` typed in ``place`` that is no command (see the function
        :func:`unknown_command`): ``!cube`` names ``!beaver`` only where the channel's game is
        a money game that allows beavers (the match is read for that word alone)."""
        beavers = False
        if word.strip().lower() == "cube":
            table = await self._repository.table(place, repair=False)
            beavers = table is not None and table.match.length == 0 and table.match.options.beavers
        return unknown_command(prefix, word, self._commands, beavers=beavers, language=language)

    async def pending_decision(self, place: Place) -> Pending | None:
        """The question the table waits on now, or None."""
        table = await self._repository.table(place, repair=False)
        if table is not None:
            return table_pending(table)
        challenge = await self._challenges.open_challenge(place, expire=False)
        last = await self._store.matches.latest(place.server_id, place.channel_id)
        if challenge is None:
            return await self._rematch_pending(place) if last is not None else None
        name = md((await self._repository.names(place, (challenge.challenged_id,) * 2))[0])
        pair = {challenge.challenger_id, challenge.challenged_id}
        rematch = (
            RematchKey(last.id)
            if last is not None and last.status == "finished" and set(last.player_ids) == pair
            else None
        )
        return Pending(
            Decision.CHALLENGE,
            challenge.challenged_id,
            name,
            ChallengeKey(challenge.id),
            rematch_key=rematch,
        )

    async def _rematch_pending(self, place: Place) -> Pending | None:
        """The rematch question of the table's last match, once it is finished."""
        try:
            table = await self._repository.table(place, latest=True, repair=False)
        except Refusal:  # its record is damaged: no rematch from it
            return None
        if table is None or table.row.status != "finished":
            return None
        asked = rematch_asked(table)
        seat = table.row.player_ids.index(asked)
        other = table.row.player_ids[1 - seat]
        others = () if other == ENGINE_ID else (other,)
        return Pending(Decision.REMATCH, asked, table.names[seat], RematchKey(table.row.id), others)
