"""What ``!help`` says: the list's title, intro and sections, one command's example, and what the
bot has for words players of other clients type by habit (``!undo``). A command's one line comes
from the slash commands' descriptions (:mod:`bot.i18n.commands`), its details stay English."""

from __future__ import annotations

from bot.i18n.commands import SLASH
from bot.i18n.core import DISCORD_LOCALES, Language
from bot.i18n.core import Message as M

TITLE = M("help_title", "Backgammon commands")
INTRO = M(
    "help_intro",
    "Also as slash commands. A challenge expires after {challenge}; a match may be claimed after "
    "{claim} without a move. `{prefix}help <command>` for more.",
)
ALSO = M("help_also", " (also {aliases})")
EXAMPLE = M("help_example", "Example: `{prefix}{example}`")
NO_SUCH_COMMAND = M(
    "help_no_such_command", "There is no command {quoted}. `{prefix}help` lists them all."
)
# The sections, by the name of :class:`bot.service.commands.schema.Topic`.
TOPICS = {
    "MATCH": M("help_topic_match", "Challenges and matches"),
    "PLAY": M("help_topic_play", "Playing"),
    "CUBE": M("help_topic_cube", "The cube and resigning"),
    "GNUBG": M("help_topic_gnubg", "GNU Backgammon"),
    "TOURNAMENT": M("help_topic_tournament", "Tournaments"),
    "SERVER": M("help_topic_server", "Records and help"),
}
# Words players of other backgammon clients type by habit, and what this bot has instead
# (``{p}`` is the prefix). None of them is a command here.
UNDO = M(
    "help_habit_undo",
    "A play is final once it is sent: there is no undo. Send the whole roll in one "
    "`{p}move <from>/<to> …`; `/move` lists the legal plays before you pick one.",
)
QUIT = M(
    "help_habit_quit",
    "`{p}resign` gives up the game (single, gammon or backgammon); `{p}abort`, typed by both "
    "players, cancels the match; `{p}cancel` withdraws a challenge.",
)
HABITS = {
    "undo": UNDO,
    "takeback": UNDO,
    "cube": M("help_habit_cube", "The cube is `{p}double` here (then `{p}take` or `{p}drop`)."),
    "redouble": M("help_habit_redouble", "A redouble is `{p}double` here, when you own the cube."),
    "pass": M(
        "help_habit_pass",
        "To refuse a double, `{p}drop`; to refuse a challenge, `{p}decline`. A roll with no "
        "legal play passes by itself.",
    ),
    "skip": M(
        "help_habit_skip",
        "Nothing to skip: forced plays and rolls with no legal play happen by themselves; "
        "`{p}roll` rolls.",
    ),
    "quit": QUIT,
    "forfeit": QUIT,
    "surrender": QUIT,
}
# ``!cube`` where beavers exist: a money game that allows them, and only there.
CUBE_WITH_BEAVERS = M(
    "help_habit_cube_beavers",
    "The cube is `{p}double` here (then `{p}take`, `{p}drop` or `{p}beaver`: this money game "
    "allows beavers).",
)


def summary_of(name: str, english: str, language: Language) -> str:
    """A command's one line in ``language``: its slash command's description there (the same
    words Discord shows), or ``english``."""
    for locale, texts in SLASH.items():
        if DISCORD_LOCALES.get(locale) == language and name in texts.commands:
            return texts.commands[name][1]
    return english
