"""Challenges: the terms a challenger types, and a challenge's answer (accept, decline, cancel)
or expiry. An accepted challenge starts the match."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection
from typing import Any

from bot.gnubg.api import LEVELS
from bot.i18n import play as say
from bot.i18n import reports as words
from bot.i18n.core import Language
from bot.rules.match import Match, advance
from bot.rules.notation import whole_number, whole_number_in
from bot.rules.state import MAX_AUTOMATIC_DOUBLES
from bot.rules.text import quote
from bot.service.keys import ChallengeKey
from bot.service.matches.presentation import (
    BoardImages,
    match_kind,
    options_text,
    status_reply,
    typed,
)
from bot.service.matches.repository import (
    CLOCK_WORD,
    ClockTermsError,
    DamagedMatch,
    Repository,
    read_clock,
)
from bot.service.matches.threads import MatchThreads, ThreadOpener
from bot.service.models import Decision, Place, Rate, Refusal, Reply, User, shown_prefix
from bot.service.models import markdown_safe as md
from bot.service.records.dice import DiceFactory
from bot.service.records.durations import clock_text, countdown, setting_duration, wait_duration
from bot.settings import MAX_MATCH_LENGTH, Settings
from bot.store import ChallengeRow, Store

HINTS_WORD = "hints"  # a challenge between people that allows !hint (unrated)
CHALLENGE_RATE = Rate(3, 600.0)  # unaccepted challenges of one user, per server
TUTOR_WORD = "tutor"  # a game against the bot that comments on costly decisions
_POINT_WORDS = ("points", "point", "pts", "pt", "p")
_LENGTH_WORDS = re.compile(r"^(\d+)(?=(?:points|point|pts|pt|p)\b)")  # "3pt" -> "3 pt"
MONEY_OPTIONS: dict[str, tuple[str, Any]] = {
    "jacoby": ("jacoby", True),
    "beavers": ("beavers", True),
    "beaver": ("beavers", True),
    "auto": ("automatic_doubles", True),
    "automatic": ("automatic_doubles", True),
}


def take_words(
    terms: str | int | None, wanted: Collection[str]
) -> tuple[str | int | None, list[str]]:
    """``terms`` without the words in ``wanted`` (any case), and those words as found:
    ``5 tutor expert`` -> ``5``, ``["tutor", "expert"]``."""
    if not isinstance(terms, str):
        return terms, []
    words = typed(terms).replace(",", " ").split()
    taken = [word.lower() for word in words if word.lower() in wanted]
    rest = " ".join(word for word in words if word.lower() not in wanted)
    return rest, taken


def parse_terms(
    terms: str | int | None, settings: Settings, *, language: Language
) -> tuple[int, dict[str, Any]]:
    """Match length (0 = money) and money-game options from what the challenger typed:
    ``5``, ``5 points``, ``money jacoby beavers auto 2``."""
    if terms is None or isinstance(terms, int):
        return _parse_length(terms, settings, language=language), {}
    words = _LENGTH_WORDS.sub(r"\1 ", typed(terms).lower().replace(",", " ")).split()
    if words and whole_number(words[0]) is not None and len(words) > 1 and words[1] in _POINT_WORDS:
        words.pop(1)  # "3 points"
    if not words:
        return _parse_length(None, settings, language=language), {}
    first, extras = (words[0], words[1:]) if words[0] not in MONEY_OPTIONS else (None, words)
    options = _parse_options(extras, settings.command_prefix, language=language)
    length = _parse_length(first, settings, language=language)
    if options and length:
        raise Refusal(say.MONEY_OPTIONS_ONLY(language, prefix=settings.command_prefix))
    return length, options


def _parse_options(words: list[str], prefix: str, *, language: Language) -> dict[str, Any]:
    options: dict[str, Any] = {}
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word not in MONEY_OPTIONS:
            raise Refusal(say.NOT_A_MATCH_OPTION(language, quoted=quote(word)))
        name, value = MONEY_OPTIONS[word]
        if name == "automatic_doubles" and index < len(words) and words[index] not in MONEY_OPTIONS:
            value = whole_number_in(words[index], 1, MAX_AUTOMATIC_DOUBLES)
            if value is None:
                number = whole_number(words[index])
                raise Refusal(
                    say.AUTOMATIC_DOUBLES_RANGE(
                        language,
                        most=MAX_AUTOMATIC_DOUBLES,
                        shown=quote(words[index]) if number is None else number,
                        prefix=prefix,
                    )
                )
            index += 1
        options[name] = value
    return options


def _parse_length(length: str | int | None, settings: Settings, *, language: Language) -> int:
    if length is None or (isinstance(length, str) and not length.strip()):
        return settings.default_match_length
    if isinstance(length, str):
        word = typed(length).lower()
        if word in ("money", "m"):
            return 0
        number = whole_number(word)
        if number is None and not word.isdecimal():
            raise Refusal(say.NOT_A_LENGTH(language, quoted=quote(length), most=MAX_MATCH_LENGTH))
        if number is None:  # more digits than any length
            raise _no_such_length(quote(word), settings.command_prefix, language=language)
        length = number
    if not 1 <= length <= MAX_MATCH_LENGTH:
        raise _no_such_length(str(length), settings.command_prefix, language=language)
    return length


def _no_such_length(shown: str, prefix: str, *, language: Language) -> Refusal:
    return Refusal(say.NO_SUCH_LENGTH(language, most=MAX_MATCH_LENGTH, shown=shown, prefix=prefix))


def unrated_text(hints: bool, place: Place, *, language: Language) -> str:
    """What makes a match between people unrated, as its challenge and its start say it."""
    if hints:
        return say.UNRATED_HINTS(language)
    return say.UNRATED_DM(language) if place.private else ""


def take_clock(
    terms: str | int | None, prefix: str, *, language: Language
) -> tuple[str | int | None, float | None]:
    """``terms`` without ``clock <time>``, and the time per point it gives (seconds), if any:
    ``5 clock 2m`` -> ``5``, 120."""
    if not isinstance(terms, str):
        return terms, None
    words = typed(terms).replace(",", " ").split()
    lowered = [word.lower() for word in words]
    if CLOCK_WORD not in lowered:
        return terms, None
    at = lowered.index(CLOCK_WORD)
    example = f"`{prefix}challenge @bob 5 clock 2m`"
    if at + 1 >= len(words):
        raise Refusal(say.CLOCK_HOW_MUCH(language, example=example))
    try:
        seconds = read_clock(words[at + 1])
    except ClockTermsError as error:
        raise Refusal(say.CLOCK_REFUSED(language, reason=error.said, example=example)) from None
    return " ".join(words[:at] + words[at + 2 :]), seconds


def clock_terms_text(seconds: float | None, delay: float, *, language: Language) -> str:
    """`` on the clock (2 min per point, 15 s delay per move)`` for a clocked match."""
    if seconds is None:
        return ""
    return words.CLOCK_TERMS(
        language, bank=clock_text(seconds, language=language), delay=f"{delay:g}"
    )


class Challenges:
    """The commands about challenges. Each runs under the channel's lock (the facade's)."""

    def __init__(
        self,
        store: Store,
        repository: Repository,
        images: BoardImages,
        settings: Settings,
        clock: Callable[[], float],
        dice: DiceFactory,
        threads: MatchThreads | None = None,
    ) -> None:
        """``threads``: where an accepted challenge's match may get a thread of its own."""
        self._store = store
        self.threads = threads
        self._repository = repository
        self._images = images
        self._settings = settings
        self._clock = clock
        self._dice = dice

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    async def open_challenge(self, place: Place, *, expire: bool = True) -> ChallengeRow | None:
        """The channel's open challenge. One past its time is closed as expired when
        ``expire`` (only under the channel's lock); either way it is not returned."""
        challenge = await self._store.challenges.open(place.server_id, place.channel_id)
        if challenge is not None and challenge.expires_at <= self._clock():
            if expire:
                async with self._store.transaction() as tx:
                    await tx.challenges.expire(challenge.id)
            return None
        return challenge

    async def _no_challenge(self, place: Place, verb: str, *, language: Language) -> Refusal:
        """Why there is no challenge to ``verb``: it expired, or there never was one."""
        last = await self._store.challenges.latest(place.server_id, place.channel_id)
        match = await self._store.matches.latest(place.server_id, place.channel_id)
        expired = last is not None and last.status == "expired"
        if last is not None and last.status == "accepted":
            # its match may have moved to a thread: point there
            pointer = await self._repository.elsewhere(
                place, language=language, latest=True, after=0 if match is None else match.id
            )
            if pointer is not None:
                return Refusal(say.CHALLENGE_WAS_ACCEPTED(language, where=pointer.text))
        if last is not None and expired and (match is None or match.created_at < last.created_at):
            ids = (last.challenger_id, last.challenged_id)
            names = [md(name) for name in await self._repository.names(place, ids)]
            ago = countdown(self._clock() - last.expires_at, language=language)
            lasting = setting_duration(
                self._settings.challenge_timeout_minutes / 60, language=language
            )
            return Refusal(
                say.CHALLENGE_EXPIRED_AGO(
                    language,
                    challenger=names[0],
                    opponent=names[1],
                    ago=ago,
                    lasting=lasting,
                    prefix=self._prefix,
                )
            )
        return Refusal(say.NO_CHALLENGE_TO[verb](language, prefix=self._prefix))

    async def challenge(
        self, place: Place, user: User, opponent: User, length: str | int | None
    ) -> list[Reply]:
        language = user.language
        length, clock = take_clock(length, self._prefix, language=language)
        length, extras = take_words(length, (HINTS_WORD, TUTOR_WORD, *LEVELS))
        if any(word != HINTS_WORD for word in extras):
            raise Refusal(
                say.FOR_THE_BOT(
                    language,
                    quoted=quote(next(w for w in extras if w != HINTS_WORD)),
                    prefix=self._prefix,
                )
            )
        hints = bool(extras)
        points, options = parse_terms(length, self._settings, language=language)
        if clock is not None and points == 0:
            raise Refusal(say.CLOCK_FOR_MATCHES(language, prefix=self._prefix))
        if opponent.id == user.id:
            raise Refusal(say.NOT_YOURSELF(language, prefix=self._prefix))
        await self.require_free_table(place, language=language)
        now = self._clock()
        await self._within_rate(place, user, now, language=language)
        minutes = self._settings.challenge_timeout_minutes
        async with self._store.transaction() as tx:
            await tx.players.ensure_all(
                place.server_id, [(user.id, user.name), (opponent.id, opponent.name)], now
            )
            challenge_id = await tx.challenges.create(
                place.server_id,
                place.channel_id,
                user.id,
                opponent.id,
                points,
                now,
                now + minutes * 60,
                json.dumps(options),
            )
            if hints:
                await tx.challenges.set_hints(challenge_id, hints)
            if clock is not None:
                await tx.challenges.set_clock(challenge_id, clock)
        self._repository.remember(place, user, opponent)
        p = shown_prefix(self._prefix, place)
        delay = self._settings.clock_delay_seconds
        return [
            Reply(
                say.CHALLENGES(
                    language,
                    challenger=md(user.name),
                    opponent=md(opponent.name),
                    terms=f"{match_kind(points, language=language)}{options_text(options)}"
                    f"{unrated_text(hints, place, language=language)}"
                    f"{clock_terms_text(clock, delay, language=language)}",
                    prefix=p,
                    expires=setting_duration(minutes / 60, language=language),
                ),
                mention=(opponent.id,),
                decision=Decision.CHALLENGE,
                decision_for=opponent.id,
                decision_key=ChallengeKey(challenge_id),
            )
        ]

    async def _within_rate(
        self, place: Place, user: User, now: float, *, language: Language
    ) -> None:
        """At most :data:`CHALLENGE_RATE` challenges per user on a server that nobody accepted:
        each pings someone. (An accepted one was welcome; a game against the bot pings nobody
        and is no challenge.)"""
        rate = CHALLENGE_RATE
        sent = await self._store.challenges.times(
            place.server_id, user.id, now - rate.seconds, rate.count
        )
        if len(sent) >= rate.count:
            wait = max(1.0, sent[-1] + rate.seconds - now)
            raise Refusal(
                say.CHALLENGE_RATE(
                    language,
                    count=rate.count,
                    window=wait_duration(rate.seconds, language=language),
                    wait=wait_duration(wait, language=language),
                )
            )

    async def require_free_table(self, place: Place, *, language: Language) -> None:
        """Refuse unless the channel has neither a match being played nor an open challenge
        (one that can't be read is refused with what is said of it at every command there)."""
        playing = await self._repository.table(place)
        if isinstance(playing, DamagedMatch):
            raise Refusal(playing.text(language))
        if playing is not None:
            raise Refusal(say.TABLE_BUSY(language))
        existing = await self.open_challenge(place)
        if existing is not None:
            raise Refusal(say.CHALLENGE_OPEN(language, prefix=self._prefix))

    async def accept(
        self, place: Place, user: User, opener: ThreadOpener | None = None
    ) -> list[Reply]:
        """``user`` accepts the challenge offered to them: the match starts (in a thread of
        its own, where ``opener``, the front end's, opens one)."""
        language = user.language
        challenge = await self.open_challenge(place)
        if challenge is None:
            raise await self._no_challenge(place, "accept", language=language)
        if challenge.challenged_id != user.id:
            challenged = md(
                (await self._repository.names(place, (challenge.challenged_id,) * 2))[0]
            )
            raise Refusal(say.CHALLENGE_NOT_YOURS(language, name=challenged))
        match = Match.start(
            challenge.match_length, dice=self._dice(), **json.loads(challenge.options)
        )
        events = list(match.record)
        match = advance(match, events)
        thread: Place | None = None
        said: list[Reply] = []
        if self.threads is not None and opener is not None:
            challenger = (await self._repository.names(place, (challenge.challenger_id,) * 2))[0]
            thread, said = await self.threads.open(
                opener, place, (challenger, user.name), match.length, ChallengeKey(challenge.id)
            )
        async with MatchThreads.discarding(opener, thread):
            table = await self._repository.create_match(
                place, challenge, user, match, thread=thread
            )
        delay = self._settings.clock_delay_seconds
        lead = say.ACCEPTS(
            language,
            first=table.names[0],
            second=table.names[1],
            terms=f"{match_kind(match.length, language=language, alone=True)}"
            f"{options_text(match.options.to_data())}"
            f"{unrated_text(bool(challenge.hints), place, language=language)}"
            f"{clock_terms_text(challenge.clock_seconds, delay, language=language)}",
            commitment=match.commitment,
        )
        reply = await status_reply(
            table, events, self._prefix, self._images, lead=lead, language=language
        )
        if self.threads is None:
            return [reply]
        accepted = say.ACCEPTS_CHALLENGE(language, first=table.names[0], second=table.names[1])
        return said + await self.threads.moved([reply], thread, accepted, language=language)

    async def close(
        self, place: Place, user: User, *, status: str, language: Language
    ) -> list[Reply]:
        """The challenged player declines (``declined``), or the challenger cancels
        (``cancelled``)."""
        declining = status == "declined"
        challenge = await self.open_challenge(place)
        if challenge is None:
            raise await self._no_challenge(
                place, "decline" if declining else "cancel", language=language
            )
        allowed = challenge.challenged_id if declining else challenge.challenger_id
        if allowed != user.id:
            if declining:
                raise Refusal(say.ONLY_CHALLENGED_DECLINES(language, prefix=self._prefix))
            raise Refusal(say.ONLY_CHALLENGER_CANCELS(language, prefix=self._prefix))
        async with self._store.transaction() as tx:
            await tx.challenges.close(challenge.id, status)
        said = say.DECLINES if declining else say.WITHDRAWS
        return [Reply(said(language, who=md(user.name)))]
