"""What an organiser types to create a tournament, read into :class:`TournamentTerms`.

``Spring knockout 3`` (a knockout of 3-point matches), ``Autumn swiss 4 rounds 1`` (4 Swiss
rounds of 1-point matches), ``League roundrobin 5``; then, in any order: ``clock 2m`` (a clock
per point, as a challenge takes it) or ``days 3`` (correspondence: each match must be over
within 3 days; the default is :data:`DEFAULT_DAYS`), ``unrated``, ``limit 16`` (entrants at
most), ``start 2h`` (starts by itself 2 hours from now; without it the organiser starts it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.i18n import tournaments as say
from bot.i18n.core import Language, Message
from bot.rules.notation import decimal_number, whole_number_in
from bot.rules.text import quote
from bot.rules.tournaments.model import MAX_ROUND_ROBIN, Format
from bot.service.matches.presentation import typed
from bot.service.matches.repository import CLOCK_WORD, ClockTermsError, read_clock
from bot.service.models import Refusal
from bot.service.records.durations import UNIT_SECONDS
from bot.settings import MAX_MATCH_LENGTH

DEFAULT_DAYS = 7.0  # correspondence: days per match when the organiser says nothing
MAX_DAYS = 60.0
MAX_ENTRANTS = 256
DEFAULT_LIMIT = 64
NAME_LIMIT = 40  # characters of a tournament's name
FORMAT_WORDS = {
    "knockout": Format.KNOCKOUT,
    "ko": Format.KNOCKOUT,
    "swiss": Format.SWISS,
    "roundrobin": Format.ROUND_ROBIN,
    "rr": Format.ROUND_ROBIN,
}
EXAMPLE = "`{p}tournament create Spring knockout 3`"


def _example(prefix: str) -> str:
    return EXAMPLE.format(p=prefix)


_IN = re.compile(r"^([\d.]+)([mhd])$")


@dataclass(frozen=True, slots=True)
class TournamentTerms:
    name: str
    format: Format
    swiss_rounds: int | None
    length: int
    clock_seconds: float | None
    deadline_days: float | None
    rated: bool
    size_limit: int
    starts_in: float | None  # seconds from now; None: the organiser starts it


def _number(
    word: str, what: Message, low: int, high: int, prefix: str, *, language: Language
) -> int:
    number = whole_number_in(word, low, high)
    if number is None:
        raise Refusal(
            say.NOT_A_NUMBER(
                language,
                quoted=quote(word),
                what=what(language),
                low=low,
                high=high,
                example=_example(prefix),
            )
        )
    return number


def read_terms(text: str, prefix: str, *, language: Language) -> TournamentTerms:
    """The terms of ``create``; raises :class:`Refusal` saying what is wrong."""
    words = typed(text).replace(",", " ").split()
    at = next((i for i, word in enumerate(words) if word.lower() in FORMAT_WORDS), None)
    if at is None:
        raise Refusal(say.SAY_FORMAT(language, example=_example(prefix)))
    name = " ".join(words[:at]).strip()
    if not name:
        raise Refusal(say.NAME_FIRST(language, example=_example(prefix)))
    if len(name) > NAME_LIMIT or not re.fullmatch(r"[\w .'-]+", name):
        raise Refusal(say.NAME_RULE(language, most=NAME_LIMIT, quoted=quote(name)))
    fmt = FORMAT_WORDS[words[at].lower()]
    rest = [word.lower() for word in words[at + 1 :]]
    rounds: int | None = None
    if fmt is Format.SWISS:
        if len(rest) >= 2 and rest[0] == "rounds":
            rounds = _number(rest[1], say.A_NUMBER_OF_ROUNDS, 1, 20, prefix, language=language)
            rest = rest[2:]
        elif len(rest) >= 2 and rest[1] in ("rounds", "round"):
            rounds = _number(rest[0], say.A_NUMBER_OF_ROUNDS, 1, 20, prefix, language=language)
            rest = rest[2:]
        else:
            raise Refusal(say.SAY_ROUNDS(language, prefix=prefix))
    if not rest or not rest[0].isdigit():  # a digit of any kind: _number says what is wrong
        raise Refusal(say.SAY_LENGTH(language, most=MAX_MATCH_LENGTH, example=_example(prefix)))
    length = _number(
        rest.pop(0), say.A_MATCH_LENGTH, 1, MAX_MATCH_LENGTH, prefix, language=language
    )
    if rest and rest[0] in ("points", "point", "pt", "pts"):
        rest.pop(0)
    clock: float | None = None
    days: float | None = None
    rated = True
    limit = MAX_ROUND_ROBIN if fmt is Format.ROUND_ROBIN else DEFAULT_LIMIT
    starts_in: float | None = None
    while rest:
        word = rest.pop(0)
        if word == "unrated":
            rated = False
        elif word == "rated":
            rated = True
        elif word in (CLOCK_WORD, "days", "day", "limit", "start") and not rest:
            raise Refusal(say.SAY_HOW_MUCH(language, word=word, sample=_SAMPLES[word]))
        elif word == CLOCK_WORD:
            try:
                clock = read_clock(rest.pop(0))
            except ClockTermsError as error:
                raise Refusal(say.CLOCK_EXAMPLE(language, error=error.said)) from None
        elif word in ("days", "day"):
            value = rest.pop(0)
            days = decimal_number(value)
            if days is None or not 0.5 <= days <= MAX_DAYS:
                raise Refusal(say.NOT_DAYS(language, quoted=quote(value), most=f"{MAX_DAYS:g}"))
        elif word == "limit":
            high = MAX_ROUND_ROBIN if fmt is Format.ROUND_ROBIN else MAX_ENTRANTS
            limit = _number(rest.pop(0), say.A_SIZE_LIMIT, 2, high, prefix, language=language)
        elif word == "start":
            starts_in = read_delay(rest.pop(0), language=language)
        else:
            raise Refusal(say.NOT_A_TERM(language, quoted=quote(word)))
    if clock is not None and days is not None:
        raise Refusal(say.CLOCK_OR_DAYS(language))
    if clock is None and days is None:
        days = DEFAULT_DAYS
    return TournamentTerms(name, fmt, rounds, length, clock, days, rated, limit, starts_in)


_SAMPLES = {CLOCK_WORD: "2m", "days": "3", "day": "3", "limit": "16", "start": "2h"}


def read_delay(word: str, *, language: Language) -> float:
    """``30m``, ``2h``, ``1d``: seconds from now (at most 30 days)."""
    found = _IN.match(word)
    number = decimal_number(found[1]) if found else None
    if found is None or number is None:
        raise Refusal(say.NOT_A_TIME(language, quoted=quote(word)))
    seconds = number * UNIT_SECONDS[found[2]]
    if not 60 <= seconds <= 30 * 86400:
        raise Refusal(say.START_RANGE(language))
    return seconds


# ``/tournament``'s autocomplete: what to type, as (shown, sent). A verb that takes more (whom,
# which match, why) sends the verb alone: the refusal then says what it wants.
VERB_CHOICES: tuple[tuple[str, str], ...] = (
    ("create Spring knockout 3", "create Spring knockout 3"),
    ("create Autumn swiss 4 rounds 1", "create Autumn swiss 4 rounds 1"),
    ("create League roundrobin 5", "create League roundrobin 5"),
    ("join", "join"),
    ("leave", "leave"),
    ("report", "report"),
    ("start", "start"),
    ("pause", "pause"),
    ("resume", "resume"),
    ("remove @user reason", "remove"),
    ("result 2.3 @winner reason", "result"),
    ("cancel reason", "cancel"),
)
CREATE_CHOICES = ("knockout 3", "swiss 4 rounds 1", "roundrobin 5")
TERM_CHOICES = ("days 3", "clock 2m", "unrated", "limit 8", "start 2h")
_EXCLUSIVE = {"days": "clock", "day": "clock", "clock": "days"}  # correspondence or live


def verb_choices(text: str, limit: int = 25) -> list[tuple[str, str]]:
    """``/tournament``'s choices for what was typed so far, as (shown, sent): the verbs that
    begin with it; after ``create NAME``, its formats; after a format, the terms not said yet;
    after a tournament's name, the verbs for it; else what was typed, as it is (a typo: the
    service judges it)."""
    typed = " ".join(text.split())
    words = typed.split(" ") if typed else []
    as_typed = [(typed, typed)] if typed else []
    if words and words[0].lower() == "create" and len(words) >= 2:
        if len(words) == 2:
            return [(f"{typed} {terms}",) * 2 for terms in CREATE_CHOICES]
        said = {word.lower() for word in words}
        said |= {_EXCLUSIVE[word] for word in said if word in _EXCLUSIVE}
        more = [(f"{typed} {terms}",) * 2 for terms in TERM_CHOICES if terms.split()[0] not in said]
        return [*as_typed, *more][:limit]
    fitting = [choice for choice in VERB_CHOICES if choice[0].startswith(typed.lower())]
    if fitting or not words:
        return fitting[:limit]
    if words[0].lower() in {sent.split()[0] for _, sent in VERB_CHOICES} | {"show", "status"}:
        return as_typed  # the verb and more (``join Spring``, ``remove @bob late``)
    # A tournament named first (``Spring start``, ``#3 report``): the verbs for it.
    name, rest = words[0], " ".join(words[1:]).lower()
    named = [
        (f"{name} {shown}", f"{name} {sent}")
        for shown, sent in VERB_CHOICES
        if not sent.startswith("create") and shown.startswith(rest)
    ]
    return ([] if rest else as_typed) + named[: limit - 1] or as_typed
