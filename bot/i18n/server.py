"""What the service says about a server's own settings (``!settings``)."""

from __future__ import annotations

from bot.i18n.core import Message as M

SETTINGS_SHOWN = M(
    "settings_shown",
    "This server's language for typed commands: {name} (`{code}`). Moderators change it with "
    "`{prefix}settings language <code>`: {codes}. Slash commands and buttons speak each user's "
    "own Discord language.",
)
LANGUAGE_SET = M("language_set", "Typed commands on this server now get replies in {name}.")
MODERATORS_ONLY = M(
    "moderators_only", "Only moderators (Manage Messages) can change the server's settings."
)
NOT_A_SETTING = M(
    "not_a_setting",
    "{quoted} is not a setting: the one setting is `language`, e.g. "
    "`{prefix}settings language de`.",
)
NOT_A_LANGUAGE = M("not_a_language", "{quoted} is not a language I speak: {codes}.")
