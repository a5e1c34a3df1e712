"""The tournament commands: create, sign-up (join and leave), start, the organiser's pause,
resume, remove, result and cancel, and where a tournament stands.

What moves a tournament on once it runs is :class:`~bot.service.tournaments.rounds.Rounds`:
results flow in as return values (the facade hands :meth:`Rounds.after_ends` the matches a
command ended, as the command's replies say) and :meth:`Rounds.due` runs with the deadlines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.i18n import tournaments as say
from bot.i18n.core import Language
from bot.rules import tournaments as rules
from bot.rules.notation import whole_number
from bot.rules.text import quote
from bot.rules.tournaments.model import Format
from bot.service.keys import SignupKey
from bot.service.matches.threads import ThreadOpener
from bot.service.models import Decision, Place, Refusal, Reply, RoundPaired, User, paired_in
from bot.service.models import markdown_safe as md
from bot.service.records.durations import countdown, quantity
from bot.service.tournaments import images
from bot.service.tournaments.rounds import Rounds
from bot.service.tournaments.state import (
    LINES_SHOWN,
    NAMES_SHOWN,
    Snapshot,
    capped,
    standing_line,
)
from bot.service.tournaments.terms import read_terms
from bot.settings import Settings
from bot.store import Store, Transaction
from bot.store import tournaments as db
from bot.store.tournaments import EntrantRow, TournamentRow


class Tournaments:
    """The tournament commands (:meth:`command`); :attr:`rounds` moves a tournament on."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Callable[[], float],
        rounds: Rounds,
        *,
        draw: bool = True,
    ) -> None:
        self._store = store
        self._settings = settings
        self._clock = clock
        self._draw = draw
        self.rounds = rounds

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    async def _pick(
        self, place: Place, words: list[str], *, over: bool = False, language: Language
    ) -> TournamentRow:
        """The tournament the command is about: named by its first words (or ``#id``; a name
        of one not over first, else the newest of that name), else the server's only one not
        over (or, with ``over`` and none on, its newest). The name's words are taken off."""
        if words and words[0].startswith("#") and words[0][1:].isdigit():
            number = whole_number(words[0][1:])
            row = None if number is None else await self._store.tournaments.get(number)
            if row is None or row.server_id != place.server_id:
                raise Refusal(say.NO_SUCH(language, quoted=quote(words[0])))
            del words[0]
            return row
        found = await self._store.tournaments.active(place.server_id)
        named = self._named(found, words)
        if named is None and words:
            prefixes = [" ".join(words[:count]) for count in range(1, len(words) + 1)]
            named = self._named(
                await self._store.tournaments.named(place.server_id, prefixes), words
            )
        if named is not None:
            return named
        if len(found) == 1:
            return found[0]
        if not found:
            latest = await self._store.tournaments.latest(place.server_id) if over else None
            if latest is not None:
                return latest
            raise Refusal(say.NONE_RUN(language, prefix=self._prefix))
        names = ", ".join(f"`{row.name}`" for row in found)
        raise Refusal(say.SEVERAL(language, names=names, prefix=self._prefix, first=found[0].name))

    @staticmethod
    def _named(rows: list[TournamentRow], words: list[str]) -> TournamentRow | None:
        """The first of ``rows`` whose name the ``words`` begin with (the longest name first),
        its words taken off ``words``; None if none."""
        lowered = [word.casefold() for word in words]
        for row in sorted(rows, key=lambda r: -len(r.name.split())):
            name = row.name.casefold().split()
            if lowered[: len(name)] == name:
                del words[: len(name)]
                return row
        return None

    # -- the commands --------------------------------------------------------------------------

    async def command(
        self,
        place: Place,
        user: User,
        what: str | None,
        *,
        organiser: bool,
        threads: ThreadOpener | None,
    ) -> list[Reply]:
        language = user.language
        words = (what or "").split()
        first = words.pop(0) if words else "show"
        verb = first.lower()
        if verb == "create":
            return await self.create(place, user, " ".join(words), organiser=organiser)
        handlers: dict[str, Callable[..., Any]] = {
            "show": self.show,
            "status": self.show,
            "join": self.join,
            "leave": self.leave,
            "start": self.start,
            "pause": self.pause,
            "resume": self.resume,
            "cancel": self.cancel,
            "remove": self.remove,
            "result": self.fix_result,
            "report": self.report,
        }
        if verb in handlers:  # ``!tournament join Spring``
            row = await self._pick(
                place, words, over=verb in ("show", "status", "report"), language=language
            )
        else:  # the tournament first: ``!tournament Spring``, ``!tournament #3 start``
            words.insert(0, first)
            typed = " ".join(words)
            row = await self._pick(place, words, over=True, language=language)
            if " ".join(words) == typed:  # no name was taken off: the first word is none
                raise self._no_tournament(typed, language=language)
            verb = words.pop(0).lower() if words and words[0].lower() in handlers else "show"
        handler = handlers[verb]
        if verb in say.ORGANISER_ONLY and not organiser:
            raise Refusal(say.ORGANISER_ONLY[verb](language))
        if verb in ("remove", "result") and row.status not in db.ACTIVE:
            # Its champion, standings and players' records were settled at the end: one truth.
            raise Refusal(
                say.FINAL(language, name=md(row.name), status=say.STATUS[row.status](language))
            )
        replies: list[Reply]
        if verb in ("show", "status", "report"):
            replies = await handler(row, words, language=language)
            return replies
        async with self.rounds.lock(row):
            replies = await handler(row, user, words)
        if threads is not None and RoundPaired(row.id) in paired_in(replies):
            replies += await self.rounds.open_matches(row.id, threads)
        return replies

    async def create(self, place: Place, user: User, text: str, *, organiser: bool) -> list[Reply]:
        language = user.language
        if not organiser:
            raise Refusal(say.ORGANISER_ONLY["create"](language))
        terms = read_terms(text, self._prefix, language=language)
        now = self._clock()
        starts_at = None if terms.starts_in is None else now + terms.starts_in
        async with self._store.transaction() as tx:
            tournament_id = await tx.tournaments.create(
                {
                    "server_id": place.server_id,
                    "channel_id": place.channel_id,
                    "name": terms.name,
                    "format": str(terms.format),
                    "swiss_rounds": terms.swiss_rounds,
                    "match_length": terms.length,
                    "clock_seconds": terms.clock_seconds,
                    "deadline_days": terms.deadline_days,
                    "rated": int(terms.rated),
                    "size_limit": terms.size_limit,
                    "starts_at": starts_at,
                    "status": "signup",
                    "organiser_id": user.id,
                    "created_at": now,
                    "signup_message": SignupKey(0).format(),
                },
            )
            if tournament_id is None:
                raise Refusal(say.NAME_TAKEN(language, quoted=quote(terms.name)))
            await tx.tournaments.add_log(tournament_id, now, user.id, f"created by {user.name}")
        made = await self._store.tournaments.get(tournament_id)
        assert made is not None
        return [
            self._signup_reply(
                made, [], lead=say.OPENS(language, who=md(user.name)), language=language
            )
        ]

    def _terms_text(self, row: TournamentRow, *, language: Language) -> str:
        fmt = Format(row.format)
        kind = say.FORMATS[fmt](language)
        if fmt is Format.SWISS:
            kind = say.SWISS_ROUNDS(language, row.swiss_rounds or 0, kind=kind)
        time = (
            say.CLOCK_PER_POINT(language, time=countdown(row.clock_seconds, language=language))
            if row.clock_seconds is not None
            else say.DAYS_PER_MATCH(
                language, days=quantity(row.deadline_days or 0, "day", language=language)
            )
        )
        rated = say.RATED(language) if row.rated else say.UNRATED(language)
        return say.TERMS(language, row.match_length, kind=kind, time=time, rated=rated)

    def _signup_reply(
        self, row: TournamentRow, names: list[str], *, lead: str = "", language: Language
    ) -> Reply:
        when = (
            say.STARTS_IN(
                language, time=countdown(row.starts_at - self._clock(), language=language)
            )
            if row.starts_at is not None
            else say.ORGANISER_STARTS(language)
        )
        listed = ", ".join(capped(names, NAMES_SHOWN)) if names else say.NOBODY_YET(language)
        text = say.SIGNUP(
            language,
            lead=lead,
            name=md(row.name),
            terms=self._terms_text(row, language=language),
            most=row.size_limit,
            prefix=self._prefix,
            when=when,
            count=len(names),
            listed=listed,
        ).strip()
        return Reply(text, decision=Decision.SIGNUP, decision_key=SignupKey(row.id))

    async def signup_message(self, tournament_id: int, *, language: Language) -> Reply | None:
        """The sign-up message as it stands, to show in place of the pressed one (its entrants
        now); None once the tournament no longer takes entrants (its buttons ask no more)."""
        row = await self._store.tournaments.get(tournament_id)
        if row is None or row.status != "signup":
            return None
        entrants = await self._store.tournaments.entrants(row.id)
        return replace(
            self._signup_reply(row, [md(e.name) for e in entrants], language=language), edits=True
        )

    def _no_tournament(self, typed: str, *, language: Language) -> Refusal:
        return Refusal(say.NO_CALLED(language, quoted=quote(typed), prefix=self._prefix))

    @staticmethod
    async def _signing_up(tx: Transaction, row: TournamentRow, started: str) -> list[EntrantRow]:
        """The entrants of ``row``, read in ``tx`` holding the tournament (:func:`db.locked`),
        so that they stay so until it commits; refused with ``started`` once it has started."""
        fresh = await tx.tournaments.locked(row.id)
        if fresh is None or fresh.status != "signup":
            raise Refusal(started)
        return await tx.tournaments.entrants(row.id)

    async def join(self, row: TournamentRow, user: User, words: list[str]) -> list[Reply]:
        language = user.language
        if words:  # more than the name of a tournament (or none of one)
            raise self._no_tournament(" ".join(words), language=language)
        now = self._clock()
        # The checks and the write in one transaction holding the tournament: two hosts taking
        # joins at once can't both see room for one more, nor give out one number twice.
        async with self._store.transaction() as tx:
            entrants = await self._signing_up(tx, row, say.JOIN_CLOSED(language, name=md(row.name)))
            if any(e.user_id == user.id for e in entrants):
                raise Refusal(say.IN_ALREADY(language, name=md(row.name), count=len(entrants)))
            if len(entrants) >= row.size_limit:
                raise Refusal(say.FULL(language, name=md(row.name), most=row.size_limit))
            await tx.players.ensure(row.server_id, user.id, user.name, now)
            await tx.tournaments.add_entrant(row.id, user.id, user.name, now)
        names = [md(e.name) for e in entrants] + [md(user.name)]
        count = say.ENTRANTS(language, len(names))
        shown = ", ".join(capped(names[::-1], NAMES_SHOWN))  # the newest first
        return [
            Reply(
                say.JOINS(language, who=md(user.name), name=md(row.name), count=count, shown=shown)
            )
        ]

    async def leave(self, row: TournamentRow, user: User, words: list[str]) -> list[Reply]:
        language = user.language
        if words:
            raise self._no_tournament(" ".join(words), language=language)
        started = say.LEAVE_CLOSED(language, name=md(row.name), prefix=self._prefix)
        async with self._store.transaction() as tx:
            await self._signing_up(tx, row, started)
            if not await tx.tournaments.remove_entrant(row.id, user.id):
                raise Refusal(say.NOT_JOINED(language, name=md(row.name)))
        return [Reply(say.LEAVES(language, who=md(user.name), name=md(row.name)))]

    async def pause(self, row: TournamentRow, user: User, words: list[str]) -> list[Reply]:
        language = user.language
        now = self._clock()
        async with self._store.transaction() as tx:
            if not await tx.tournaments.set_status(
                row.id, ("running",), status="paused", paused_at=now
            ):
                raise Refusal(say.NOT_RUNNING(language, name=md(row.name)))
            await tx.tournaments.add_log(row.id, now, user.id, f"paused by {user.name}")
        return [
            Reply(say.PAUSES(language, who=md(user.name), name=md(row.name), prefix=self._prefix))
        ]

    async def resume(self, row: TournamentRow, user: User, words: list[str]) -> list[Reply]:
        language = user.language
        now = self._clock()
        paused_for = max(0.0, now - row.paused_at) if row.paused_at is not None else 0.0
        async with self._store.transaction() as tx:
            if not await tx.tournaments.set_status(
                row.id, ("paused",), status="running", paused_at=None
            ):
                raise Refusal(say.NOT_PAUSED(language, name=md(row.name)))
            await tx.tournaments.add_log(row.id, now, user.id, f"resumed by {user.name}")
            await tx.tournaments.extend_deadlines(row.id, paused_for)  # the pause doesn't count
        said = [
            Reply(
                say.RESUMES(
                    language,
                    who=md(user.name),
                    name=md(row.name),
                    time=countdown(paused_for, language=language),
                )
            )
        ]
        return said + await self.rounds.settle(
            await self.rounds.snapshot(row.id), language=language
        )

    async def start(self, row: TournamentRow, user: User, words: list[str]) -> list[Reply]:
        return await self.rounds.begin(row, user)

    async def cancel(self, row: TournamentRow, user: User, words: list[str]) -> list[Reply]:
        language = user.language
        reason = " ".join(words) or say.NO_REASON(language)
        async with self._store.transaction() as tx:
            if not await tx.tournaments.set_status(
                row.id, db.ACTIVE, status="cancelled", finished_at=self._clock()
            ):
                raise Refusal(say.OVER_ALREADY(language, name=md(row.name)))
            await tx.tournaments.add_log(
                row.id, self._clock(), user.id, f"cancelled by {user.name}: {reason}"
            )
        return [
            Reply(say.CANCELS(language, who=md(user.name), name=md(row.name), reason=md(reason)))
        ]

    def _entrant_named(self, snapshot: Snapshot, word: str, *, language: Language) -> int | None:
        """An entrant by mention (``<@123>``), ``@name``, name or id; None for ``none``."""
        bare = word.strip().removeprefix("<@").removeprefix("!").removesuffix(">").removeprefix("@")
        if bare.lower() in ("none", "nobody"):
            return None
        for entrant in snapshot.entrants:
            if bare == entrant.user_id or bare.lower() == entrant.name.lower():
                return entrant.number
        raise Refusal(say.NOT_ENTRANT(language, quoted=quote(word), name=md(snapshot.row.name)))

    async def remove(self, row: TournamentRow, user: User, words: list[str]) -> list[Reply]:
        language = user.language
        if not words:
            raise Refusal(say.WHOM(language, prefix=self._prefix))
        snapshot = await self.rounds.snapshot(row.id)
        number = self._entrant_named(snapshot, words[0], language=language)
        if number is None:
            raise Refusal(say.NAME_ENTRANT(language))
        entrant = snapshot.by_number[number]
        reason = " ".join(words[1:]) or say.NO_REASON(language)
        now = self._clock()
        if row.status == "signup":
            async with self._store.transaction() as tx:
                await self._signing_up(tx, row, say.REMOVE_AGAIN(language, name=md(row.name)))
                if not await tx.tournaments.remove_entrant(row.id, entrant.user_id):
                    raise Refusal(
                        say.LEFT_ALREADY(language, who=md(entrant.name), name=md(row.name))
                    )
                await tx.tournaments.add_log(
                    row.id, now, user.id, f"{user.name} removed {entrant.name}: {reason}"
                )
            return [
                Reply(
                    say.REMOVES(
                        language, who=md(user.name), entrant=md(entrant.name), name=md(row.name)
                    )
                )
            ]
        if entrant.withdrawn:
            raise Refusal(say.REMOVED_ALREADY(language, who=md(entrant.name)))

        async def withdraw(tx: Transaction) -> None:  # with their forfeit: all or nothing
            if not await tx.tournaments.withdraw(
                row.id, number
            ):  # another host's remove came first
                raise Refusal(say.REMOVED_ALREADY(language, who=md(entrant.name)))
            await tx.tournaments.add_log(
                row.id, now, user.id, f"{user.name} removed {entrant.name}: {reason}"
            )

        said = [
            Reply(
                say.REMOVES_WHY(
                    language,
                    who=md(user.name),
                    entrant=md(entrant.name),
                    name=md(row.name),
                    reason=md(reason),
                )
            )
        ]
        playing = [
            p
            for p in snapshot.round_pairings()
            if p.decided_at is None and number in (p.first, p.second)
        ]
        for n, pairing in enumerate(playing):
            other = pairing.second if pairing.first == number else pairing.first
            said += await self.rounds.decide_by_organiser(
                snapshot,
                pairing,
                other,
                say.FORFEIT_REMOVED(language, who=md(entrant.name)),
                also=withdraw if n == 0 else None,
                language=language,
            )
        if not playing:
            async with self._store.transaction() as tx:
                await withdraw(tx)
        return said + await self.rounds.settle(
            await self.rounds.snapshot(row.id), language=language
        )

    async def fix_result(self, row: TournamentRow, user: User, words: list[str]) -> list[Reply]:
        language = user.language
        usage = f"`{self._prefix}tournament result 1.2 @winner reason` (`none` for nobody)"
        if len(words) < 3:
            raise Refusal(say.SAY_WHICH(language, usage=usage))
        snapshot = await self.rounds.snapshot(row.id)
        pairing = snapshot.find_pairing(words[0])
        if pairing is None or pairing.second is None:
            raise Refusal(
                say.NOT_A_MATCH(language, quoted=quote(words[0]), name=md(row.name), usage=usage)
            )
        winner = self._entrant_named(snapshot, words[1], language=language)
        if winner is not None and winner not in (pairing.first, pairing.second):
            raise Refusal(
                say.NOT_PLAYING(
                    language, who=snapshot.name(winner), table=f"{pairing.round}.{pairing.table_no}"
                )
            )
        reason = " ".join(words[2:])
        knockout = Format(row.format) is Format.KNOCKOUT

        async def fixed(tx: Transaction) -> None:
            # Checked holding the tournament, in the result's transaction: another host can't
            # pair the next round (or end the tournament) in between.
            fresh = await tx.tournaments.locked(row.id)
            if fresh is None or fresh.status not in db.ACTIVE:
                raise Refusal(say.OVER_FINAL(language, name=md(row.name)))
            if knockout and pairing.decided_at is not None and fresh.round > pairing.round:
                raise Refusal(say.NEXT_PAIRED(language))
            await tx.tournaments.add_log(
                row.id,
                self._clock(),
                user.id,
                f"{user.name} set {pairing.round}.{pairing.table_no}: {reason}",
            )

        said = await self.rounds.decide_by_organiser(
            snapshot,
            pairing,
            winner,
            f"fixed: {md(reason)}",
            fixing=True,
            also=fixed,
            language=language,
        )
        return said + await self.rounds.settle(
            await self.rounds.snapshot(row.id), language=language
        )

    async def show(
        self, row: TournamentRow, words: list[str], *, language: Language
    ) -> list[Reply]:
        snapshot = await self.rounds.snapshot(row.id)
        if row.status == "signup":
            return [
                self._signup_reply(row, [md(e.name) for e in snapshot.entrants], language=language)
            ]
        fmt = snapshot.format
        total = rules.rounds_total(fmt, len(snapshot.entrants), swiss_rounds=row.swiss_rounds)
        states = {"running": say.STATE_RUNNING, "paused": say.STATE_PAUSED}
        state = (
            states[row.status](language, round=row.round, total=total)
            if row.status in states
            else say.STATUS[row.status](language)
        )
        terms = self._terms_text(row, language=language)
        lines = [say.SHOWN(language, name=md(row.name), terms=terms, state=state)]
        if row.status in ("running", "paused"):
            lines.append(f"__{snapshot.round_title(row.round, total, language=language)}__")
            lines += capped(
                [snapshot.pairing_line(p, language=language) for p in snapshot.round_pairings()],
                LINES_SHOWN,
            )
        table = snapshot.standings
        if snapshot.seeds_only:
            lines.append(say.SEEDS(language))
            removed = say.STANDING_REMOVED(language)
            lines += [f"{s.rank}. {md(s.name)}{removed if s.withdrawn else ''}" for s in table[:10]]
        else:
            done = (
                say.AFTER_ROUND(language, round=snapshot.rounds_done)
                if snapshot.rounds_done
                else ""
            )
            lines.append(say.STANDINGS_HEAD(language, after=done))
            if fmt is Format.KNOCKOUT:
                lines += [
                    f"{s.rank}. {md(s.name)}: {snapshot.placing(s, language=language)}"
                    for s in table[:10]
                ]
            else:
                lines += [standing_line(s, fmt, language=language) for s in table[:10]]
        return [
            Reply("\n".join(lines), file=await self.rounds.picture(snapshot, language=language))
        ]

    async def report(
        self, row: TournamentRow, words: list[str], *, language: Language
    ) -> list[Reply]:
        snapshot = await self.rounds.snapshot(row.id)
        return [
            await images.report(
                self._store.analyses, snapshot, self._prefix, draw=self._draw, language=language
            )
        ]
