"""Every catalog entry says a backgammon term with its language's word for it.

:data:`GLOSSARY` is, for each term, a pattern that finds it in an entry's English and, for each
language, the stems of the word the catalog settled on (docs/translating.md's terms table shows
the same words and where they come from: GNU Backgammon's own translations where it has one).
An entry whose English uses a term must use the word in that language, in any inflection the
stems allow; :data:`EXCEPTIONS` lists, with the reason, the few entries where the English word
means something else. Text in backticks (typed commands, kept English) and ``{fields}`` are left
out on both sides, and so are the names "GNU Backgammon", "Position ID" and "Match ID". The
slash commands' descriptions are checked the same way (keys ``/name``, ``/name.option``)."""

# ruff: noqa: RUF001, RUF002 (Greek and Turkish letters)
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import pytest

from bot.i18n.catalog import entries
from bot.i18n.commands import SLASH
from bot.i18n.core import DISCORD_LOCALES, ENGLISH, LANGUAGES, Language
from bot.i18n.languages import TABLES
from bot.service.commands.registry import COMMANDS

TRANSLATED: tuple[Language, ...] = tuple(language for language in LANGUAGES if language != ENGLISH)


@dataclass(frozen=True, slots=True)
class Term:
    """A term: ``english`` finds it in an English text; ``stems[language]`` are regular
    expressions, one of which the translation must contain (both sides are compared lower case
    and without accents, so a stem needs none)."""

    name: str
    english: str
    stems: Mapping[str, tuple[str, ...]]
    # Other words for the same thing (regular expressions, compared as the stems are), by
    # language: said in any entry, they make a second word for the term, which fails.
    avoided: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


GLOSSARY: tuple[Term, ...] = (
    Term(
        "checker",
        r"\bcheckers?\b",
        {"el": ("πουλ",), "tr": ("pul",), "it": ("pedin",), "de": ("stein",), "es": ("ficha",)},
        {
            "el": ("πιον",),
            "tr": (r"\btas(lar|i|in|ini|lari|larin)?\b",),
            "it": ("pezz",),
            "de": ("spielstein", "chequer", "checker"),
            "es": (r"\bpiezas?\b",),
        },
    ),
    Term(
        "point (of the board)",
        # "a point", "no point", "your highest point": not a match's points ("5 points", "per
        # point", "1-{most} points"), which are the next term's or a clock's.
        r"\b(a|no|highest|higher|lower) points?\b",
        {"el": ("θεσ",), "tr": ("hane",), "it": ("punt[ae]",), "de": ("punkt",), "es": ("punta",)},
        {"it": ("casell",), "es": ("casilla",)},
    ),
    Term(
        "match to N points",
        r"-point match|\bmatch to\b",
        {"el": ("ποντ",), "tr": ("sayı",), "it": ("punt[oi]",), "de": ("punkt",), "es": ("punto",)},
    ),
    Term(
        "match",
        r"\bmatch(es)?\b",
        {"el": ("αγων",), "tr": ("mac",), "it": ("match",), "de": ("match",), "es": ("match",)},
        {"el": ("ματς",), "tr": ("musabaka",), "es": ("partida",)},
    ),
    Term(
        "money game",
        r"\bmoney games?\b",
        {
            "el": ("χρημα",),
            "tr": ("para",),
            "it": ("soldi",),
            "de": ("geld",),
            "es": ("juegos? por dinero",),
        },
    ),
    Term(
        "single game (resigned)",
        r"\ba single game\b",
        {
            "el": ("μονη",),
            "tr": ("tek oyun",),
            "it": ("semplice",),
            "de": ("einfache partie",),
            "es": ("juego simple",),
        },
    ),
    Term(
        "dice",
        r"\b(dice|die)\b",
        {
            "el": ("ζαρ",),
            "tr": ("zar",),
            "it": ("dad[oi]",),
            "de": ("wurfel", "wurfl"),
            "es": ("dados?",),
        },
    ),
    Term(
        "cube",
        r"\bcube",
        {"el": ("κυβ",), "tr": ("kup",), "it": ("cubo",), "de": ("doppler",), "es": ("cubo",)},
    ),
    Term(
        "double",
        r"\b(re)?doubl(e|es|ed|ing)\b",
        {
            "el": ("διπλασ",),
            "tr": ("vido",),
            "it": ("raddopp",),
            "de": ("doppel", "doppl"),
            "es": ("dobl",),
        },
    ),
    Term(
        "take",
        r"\b(take|takes|took|taking)\b",
        {
            "el": ("δεχ", "δεξ", "δεκτ"),
            "tr": (r"\bal(\b|ı|d|m|a)",),
            "it": ("accett",),
            "de": ("an(zu)?nehm", "annahme", "nimm", "angenommen"),
            "es": ("tom",),
        },
    ),
    Term(
        "drop, pass",
        r"\b(drop|drops|dropped|pass|passed)\b",
        {
            "el": ("αρνη", "αρνει", "πασο"),
            "tr": ("pes",),
            "it": ("rifiut", "pass"),
            "de": ("lehn",),
            "es": ("pas",),
        },
    ),
    Term(
        "beaver",
        r"\bbeaver",
        {language: ("beaver",) for language in ("el", "tr", "it", "de", "es")},
    ),
    Term(
        "resign",
        r"\bresign",
        {
            "el": ("παραιτ",),
            "tr": ("teslim",),
            "it": ("abbandon",),
            "de": ("aufgab", "aufgeb", "aufzugeb", r"\bgibt? .*\bauf\b"),
            "es": ("rend", "rind"),
        },
        {
            "el": ("παραδο", "παραδιδ", "παραδω", "εγκαταλ"),
            "it": ("arrend",),
            "de": ("kapitul",),
            "es": ("abandon", "renunci"),
        },
    ),
    Term(
        "bar",
        r"\bbar\b(?!/)",
        {"el": ("μπαρα",), "tr": ("bar",), "it": ("bar",), "de": ("bar",), "es": ("barra",)},
        {"es": (r"\bbar\b(?!/)",)},
    ),
    Term(
        "bear off",
        r"\bbear(s|ing)? off\b|\bborne off\b",
        {
            "el": ("μαζ",),
            "tr": ("topla",),
            "it": ("porta.* fuori",),
            "de": ("trag", "trag"),
            "es": ("sac",),
        },
    ),
    Term(
        "home board",
        r"\bhome board\b",
        {"el": ("σπιτ",), "tr": (r"\bev",), "it": ("casa",), "de": ("heimfeld",), "es": ("casa",)},
    ),
    Term(
        "pips",
        r"\bpips?\b|\bpip count",
        {"el": ("βημα",), "tr": ("pip",), "it": ("pip",), "de": ("pip",), "es": ("pip",)},
    ),
    Term(
        "gammon",
        r"\bgammons?\b",
        {
            "el": ("γκαμον",),
            "tr": ("mars",),
            "it": ("gammon",),
            "de": ("gammon",),
            "es": ("gammon",),
        },
    ),
    Term(
        "backgammon (a triple win)",
        r"\bbackgammons?\b",
        {
            "el": ("μπακγκαμον",),
            "tr": ("backgammon",),
            "it": ("backgammon",),
            "de": ("backgammon",),
            "es": ("backgammon",),
        },
    ),
    Term(
        "Crawford",
        r"\bcrawford\b",
        {language: ("crawford",) for language in ("el", "tr", "it", "de", "es")},
    ),
    Term(
        "Crawford game",
        r"\bcrawford game\b",
        {
            "el": ("παρτιδα crawford",),
            "tr": ("crawford oyun",),
            "it": ("partita di crawford",),
            "de": ("crawford-partie",),
            "es": ("juego crawford",),
        },
    ),
    Term(
        "equity",
        r"\bequit(y|ies)\b",
        {language: ("equity",) for language in ("el", "tr", "it", "de", "es")},
    ),
    Term(
        "puzzle",
        r"\bpuzzles?\b",
        {
            "el": ("γριφ",),
            "tr": ("bulmaca",),
            "it": ("problem",),
            "de": ("ratsel",),
            "es": ("problema",),
        },
        {
            "el": ("παζλ", "puzzle"),
            "tr": ("puzzle",),
            "it": ("puzzle", "rompicapo"),
            "de": ("puzzle",),
            "es": ("puzzle", "rompecabezas"),
        },
    ),
    Term(
        "hit",
        r"\bhit(s|ting)?\b",
        {
            "el": ("χτυπ",),
            "tr": ("kır",),
            "it": ("mangi",),
            "de": ("schlag",),
            "es": ("captur",),
        },
    ),
    Term(
        "challenge",
        r"\bchallenge[sd]?\b",
        {
            "el": ("προκλ", "προκαλ"),
            "tr": ("meydan oku",),
            "it": ("sfid",),
            "de": ("herausfor", "herausgefor", r"\bford\w*\b.*\bheraus\b"),
            "es": ("desaf",),
        },
        {"tr": (r"\bdavet",), "de": ("einladung",), "es": ("reto",), "it": ("invito",)},
    ),
    Term(
        "button",
        r"\bbuttons?\b",
        {
            "el": ("κουμπ",),
            "tr": ("dugme",),
            "it": ("pulsant",),
            "de": ("button",),
            "es": ("boton",),
        },
        {"tr": ("buton",), "it": ("bottone",), "de": ("knopf", "knopfe")},
    ),
    Term(
        "legal (a play)",
        r"\blegal\b",
        {
            "el": ("νομιμ",),
            "tr": ("gecerli",),
            "it": ("legal",),
            "de": ("legal",),
            "es": ("legal",),
        },
        {
            "tr": ("yasal", "oynanabilir bir hamle"),
            "de": (r"erlaubten? zug", "erlaubten zuge", "gultigen? zug"),
            "es": ("jugadas? validas?", "movimientos? validos?"),
            "it": ("mosse? valid", "mosse? consentit"),
        },
    ),
    Term(
        "blot",
        r"\bblots?\b",
        {"el": ("ανοιχτ",), "tr": ("açık",), "it": ("scopert",), "de": ("blot",), "es": ("blot",)},
    ),
)

# Terms no entry uses yet: the glossary keeps the word settled for them (docs/translating.md),
# and the check applies as soon as an entry says one.
UNUSED = {"hit", "blot"}

# (language, or "*" for every one; key; term): where the English word is not the term.
EXCEPTIONS: Mapping[tuple[str, str, str], str] = {
    ("*", "score_match", "match to N points"): "the length alone, as in English",
    ("*", "records_doubles", "double"): "doubles of the dice",
    ("*", "records_doubles_tested", "double"): "doubles of the dice",
    ("*", "too_many_dice", "take"): "a play takes dice",
    ("*", "gnubg_queue_gone", "take"): "the bot takes its turns",
    ("*", "gnubg_turn_failed", "take"): "the bot takes its turn",
    ("*", "gnubg_turn_failed_why", "take"): "the bot takes its turn",
    ("*", "cant_pass", "drop, pass"): "passing a turn, not a double",
    ("*", "help_title", "backgammon (a triple win)"): "the game's name (τάβλι, tavla)",
    ("*", "/dice", "double"): "doubles of the dice",
    ("*", "/drill.what", "double"): "an answer typed as is, in English",
    ("*", "/drill.what", "take"): "an answer typed as is, in English",
    ("*", "export_check_the_dice", "take"): "each roll takes the next two dice",
    ("*", "help_details_analysis", "take"): "an analysis takes a while",
    ("de", "help_details_hint", "equity"): "the plural, Equities",
}


# (language, key, term): where an avoided word of the term means something else.
OTHER_SENSE: Mapping[tuple[Language, str, str], str] = {
    ("el", "help_details_void", "resign"): "an abandoned match, not a resignation",
    ("es", "help_details_void", "resign"): "an abandoned match, not a resignation",
}


def normalised(text: str) -> str:
    """``text`` lower case, its accents and marks gone (Greek tonos, Turkish cedilla, umlauts)."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(letter for letter in decomposed if not unicodedata.combining(letter))


def spoken(text: str) -> str:
    """The words of ``text`` a translator translates: no code spans, no fields, no gnubg's names
    (its own, its IDs')."""
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\{[^}]*\}", " ", text)
    return re.sub(r"GNU Backgammon|\b(Position|Match) IDs?\b", " ", text)


def forms(value: str | tuple[str, str]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else value


def english_texts() -> Iterator[tuple[str, str]]:
    """Every entry's key and its English text (both forms of a plural, together), then every
    slash command's description and its options' (keyed ``/name`` and ``/name.option``)."""
    for key, entry in entries().items():
        yield key, " / ".join(forms(entry.en))
    for command in COMMANDS:
        yield f"/{command.name}", command.summary
        for argument in command.arguments:
            yield f"/{command.name}.{argument.name}", argument.description


def translations(language: Language) -> Mapping[str, str]:
    """What :func:`english_texts` gives, in ``language``."""
    found = {key: " / ".join(forms(value)) for key, value in TABLES[language].items()}
    slash = next(texts for locale, texts in SLASH.items() if DISCORD_LOCALES[locale] == language)
    found |= {f"/{name}": description for name, (_, description) in slash.commands.items()}
    found |= {f"/{name}": description for name, (_, description) in slash.options.items()}
    return found


def excepted(language: str, key: str, term: str) -> bool:
    return (language, key, term) in EXCEPTIONS or ("*", key, term) in EXCEPTIONS


def says(translated: str, stems: tuple[str, ...]) -> bool:
    """Whether the normalised ``translated`` holds one of ``stems``."""
    return any(re.search(normalised(stem), translated) for stem in stems)


def inconsistencies(language: Language) -> list[str]:
    found = []
    table = translations(language)
    for key, english in english_texts():
        said = spoken(english)
        translated = normalised(spoken(table[key]))
        for term in GLOSSARY:
            if not re.search(term.english, said, re.IGNORECASE):
                continue
            stems = term.stems[language]
            if excepted(language, key, term.name) or says(translated, stems):
                continue
            found.append(f"{key}: {term.name!r} is not {stems} in {table[key]!r}")
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_term_has_one_word_per_language(language: Language) -> None:
    assert inconsistencies(language) == []


def second_words(language: Language) -> list[str]:
    """Every entry that says a term with another word than the glossary's (its avoided
    words), whatever its English says."""
    found = []
    for key, text in translations(language).items():
        translated = normalised(spoken(text))
        for term in GLOSSARY:
            avoided = term.avoided.get(language, ())
            if (
                avoided
                and says(translated, avoided)
                and (language, key, term.name) not in OTHER_SENSE
            ):
                found.append(f"{key}: a second word for {term.name!r} ({avoided}) in {text!r}")
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_entry_says_a_term_with_a_second_word(language: Language) -> None:
    assert second_words(language) == []


def test_every_other_sense_is_still_needed() -> None:
    """An entry excused a second word still says it."""
    terms = {term.name: term for term in GLOSSARY}
    for language, key, name in OTHER_SENSE:
        text = normalised(spoken(translations(language)[key]))
        assert says(text, terms[name].avoided[language]), (language, key, name)


def test_a_second_word_is_found_in_any_entry() -> None:
    """The check reads every entry: a second word fails wherever it stands."""
    terms = {term.name: term for term in GLOSSARY}
    assert says(normalised("Die Knöpfe blättern"), terms["button"].avoided["de"])
    assert says(normalised("empieza una partida"), terms["match"].avoided["es"])
    assert not says(normalised("Die Buttons blättern"), terms["button"].avoided["de"])


def used(term: Term, key: str | None = None) -> bool:
    """Whether an entry's English (``key``'s, or any entry's) says ``term``."""
    return any(
        re.search(term.english, spoken(english), re.IGNORECASE)
        for name, english in english_texts()
        if key is None or name == key
    )


def test_every_term_has_a_word_in_every_language() -> None:
    for term in GLOSSARY:
        assert sorted(term.stems) == sorted(TRANSLATED), term.name


def test_the_unused_terms_are_the_ones_no_entry_says() -> None:
    assert {term.name for term in GLOSSARY if not used(term)} == UNUSED


def test_every_exception_is_still_needed() -> None:
    """An exception names an entry whose English says the term (else it excuses nothing)."""
    terms = {term.name: term for term in GLOSSARY}
    stale = [
        (language, key, name)
        for language, key, name in EXCEPTIONS
        if name not in terms or not used(terms[name], key)
    ]
    assert stale == []


@pytest.mark.parametrize(
    ("language", "text", "term", "consistent"),
    [
        ("de", "du hast schon einen Stein auf der Bar", "checker", True),
        ("de", "du hast schon ein Pul auf der Bar", "checker", False),
        ("el", "Ο {who} δέχεται την παραίτηση.", "resign", True),
        ("el", "Ο {who} δέχεται την παράδοση.", "resign", False),
        ("tr", "{who} vidoyu aldı", "take", True),
        ("tr", "{who} kabul etti", "take", False),
        ("es", "`{prefix}tomar`: acepta", "take", False),
    ],
)
def test_a_translation_is_checked_by_its_stems(
    language: Language, text: str, term: str, consistent: bool
) -> None:
    """The stems find the word in any inflection, accents aside, and not in typed code."""
    stems = next(entry.stems[language] for entry in GLOSSARY if entry.name == term)
    translated = normalised(spoken(text))
    assert says(translated, stems) is consistent


# Neuter articles and prepositions with them: "το πρόγραμμα" would make GNU Backgammon neuter.
NEUTER_BEFORE_THE_ENGINE = re.compile(r"(?<!\w)(το|στο|απο το|με το) (gnu backgammon|gnubg)\b")


def test_greek_calls_gnu_backgammon_masculine_everywhere() -> None:
    """The bot's opponent is "ο GNU Backgammon" in a player's entries ("Ο {who} δέχεται"), so
    it is masculine in its own entries too ("Ο GNU Backgammon αναλύει", "από τον GNU
    Backgammon"), as docs/translating.md says: never "το GNU Backgammon"."""
    found = [
        f"{key}: {text!r}"
        for key, text in translations("el").items()
        if NEUTER_BEFORE_THE_ENGINE.search(normalised(text))
    ]
    assert found == []
    from bot.i18n.gnubg import TURN_FAILED, TURN_FAILED_WHY  # the engine as a field, {name}

    for entry in (TURN_FAILED, TURN_FAILED_WHY):
        said = entry("el", name="GNU Backgammon", why="", prefix="!")
        assert not NEUTER_BEFORE_THE_ENGINE.search(normalised(said)), said
    assert NEUTER_BEFORE_THE_ENGINE.search(normalised("Το GNU Backgammon αναλύει"))
    assert not NEUTER_BEFORE_THE_ENGINE.search(normalised("Ο GNU Backgammon: το παιχνίδι"))
