"""Every command with its usage, an example, one line on what it does and, for ``!help
<command>``, the details. Numbers that are settings (timeouts, the default length) are read from
the settings when the help is shown, never written here."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from bot.settings import MAX_MATCH_LENGTH, Settings


@dataclass(frozen=True, slots=True)
class CommandHelp:
    name: str
    usage: str
    example: str
    summary: str  # one line, no settings in it (it is also the slash command's description)
    details: str = ""  # more for ``!help <command>``; may use the fields of :func:`_values`


COMMANDS: tuple[CommandHelp, ...] = (
    CommandHelp(
        "challenge",
        "challenge @user [points|money]",
        "challenge @bob 5",
        "offer a match to N points, or a money game",
        "Points: 1 to {max_length} (default {default_length}); `5`, `5 points` and `5pt` all "
        "work. `money` is an unrated money game, which may add: `jacoby` (gammons count only "
        "once the cube has been turned), `beavers` (take and redouble at once, keeping the "
        "cube), `auto` (a tie in the opening roll turns the cube; at most once per game, or "
        "`auto 2`/`auto 3` for more), e.g. `{p}challenge @bob money jacoby beavers auto`. "
        "One challenge or match per channel (a thread is its own table); a challenge expires "
        "after {challenge_minutes}.",
    ),
    CommandHelp(
        "accept", "accept", "accept", "accept the challenge, or the resignation, offered to you"
    ),
    CommandHelp("decline", "decline", "decline", "turn down a challenge offered to you"),
    CommandHelp("cancel", "cancel", "cancel", "withdraw the challenge you offered"),
    CommandHelp(
        "roll",
        "roll",
        "roll",
        "roll the dice when it is your turn",
        "The opening roll happens by itself; when you can't double (the cube is your "
        "opponent's, the Crawford game, a dead cube) the bot rolls for you.",
    ),
    CommandHelp(
        "move",
        "move <play>",
        "move 13/7 8/7",
        "play your roll: gnubg notation (24/18*/13, bar/22, 6/off, 8/2(2)) or FIBS (13-7)",
        "Moves in any order, `*` optional, `bar` or `25`, `off` or `0`, `(2)` to repeat. "
        "Forced plays and rolls with no legal move are played for you.",
    ),
    CommandHelp(
        "double",
        "double",
        "double",
        "offer the cube before you roll",
        "You may double before rolling when the cube is in the middle or yours. There is no "
        "cube in the Crawford game (the first game after a player gets within one point of "
        "winning the match) or in a 1-point match, and none when it is dead: when a doubled "
        "game can't change the match for you (your score plus the cube already wins it).",
    ),
    CommandHelp("take", "take", "take", "accept a double: you own the cube at twice the value"),
    CommandHelp("drop", "drop", "drop", "refuse a double: you lose the game at the current cube"),
    CommandHelp(
        "beaver",
        "beaver",
        "beaver",
        "money games with beavers: take and redouble at once, keeping the cube",
    ),
    CommandHelp(
        "resign",
        "resign [single|gammon|backgammon]",
        "resign gammon",
        "offer to resign the game; your opponent accepts or rejects",
        "`single` (the default) gives up the game at the cube's value, `gammon` twice that, "
        "`backgammon` three times.",
    ),
    CommandHelp("reject", "reject", "reject", "turn down a resignation and play on"),
    CommandHelp("board", "board", "board", "show the board again, from your side if you play"),
    CommandHelp("pips", "pips", "pips", "both players' pip counts"),
    CommandHelp("score", "score", "score", "match score, cube, Crawford"),
    CommandHelp("abort", "abort", "abort", "cancel the match unrated; both players must type it"),
    CommandHelp(
        "claim",
        "claim",
        "claim",
        "win the match when your opponent has stopped playing",
        "You may claim once your opponent has not acted for {claim_hours}. A claimed match "
        "counts as won and is rated.",
    ),
    CommandHelp(
        "export",
        "export",
        "export",
        "gnubg Position and Match IDs; the .mat record and the dice seed once it ends",
    ),
    CommandHelp(
        "void",
        "void",
        "void",
        "moderators: end the match in this channel, unrated",
        "For a stuck or abandoned match: anyone with Manage Messages in the channel can void it. "
        "Nobody wins and ratings don't change.",
    ),
    CommandHelp("leaderboard", "leaderboard", "leaderboard", "the server's top 10 and your rank"),
    CommandHelp("stats", "stats [@user]", "stats @bob", "one player's rating and record"),
    CommandHelp("help", "help [command]", "help move", "this list, or one command in detail"),
)

BY_NAME = {command.name: command for command in COMMANDS}


def duration_text(hours: float) -> str:
    """``10 minutes``, ``1 hour``, ``24 hours``, ``1.5 hours``."""
    minutes = hours * 60
    if minutes < 60:
        return f"{minutes:g} minute" + ("" if minutes == 1 else "s")
    return f"{hours:g} hour" + ("" if hours == 1 else "s")


def _values(prefix: str, settings: Settings) -> dict[str, str]:
    return {
        "p": prefix,
        "max_length": str(MAX_MATCH_LENGTH),
        "default_length": str(settings.default_match_length),
        "challenge_minutes": duration_text(settings.challenge_timeout_minutes / 60),
        "claim_hours": duration_text(settings.claim_timeout_hours),
    }


def suggest(word: str) -> str | None:
    """The command a mistyped ``word`` most likely meant, or None when it is not close to any
    (then it is probably meant for another bot that shares the prefix)."""
    word = word.strip().lower()
    if word in BY_NAME:
        return word
    close = difflib.get_close_matches(word, BY_NAME, n=1, cutoff=0.75)
    return close[0] if close else None


def help_text(settings: Settings, topic: str | None = None) -> str:
    """The whole list, or one command; raises ``KeyError`` for an unknown topic."""
    prefix = settings.command_prefix
    values = _values(prefix, settings)
    if topic:
        command = BY_NAME[topic.strip().lower().removeprefix(prefix).removeprefix("/")]
        lines = [f"**{prefix}{command.usage}**", command.summary[:1].upper() + command.summary[1:]]
        if command.details:
            lines.append(command.details.format(**values))
        lines.append(f"Example: `{prefix}{command.example}`")
        return "\n".join(lines)
    lines = ["**Backgammon commands** (also as slash commands)"]
    lines += [f"`{prefix}{c.usage}` - {c.summary}" for c in COMMANDS]
    lines.append(
        f"A challenge expires after {values['challenge_minutes']}; a match may be claimed "
        f"after {values['claim_hours']} without a move. `{prefix}help <command>` for more."
    )
    return "\n".join(lines)
