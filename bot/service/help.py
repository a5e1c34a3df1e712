"""Every command with its usage, an example and one line on what it does."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CommandHelp:
    name: str
    usage: str
    example: str
    summary: str


COMMANDS: tuple[CommandHelp, ...] = (
    CommandHelp(
        "challenge",
        "challenge @user [points|money]",
        "challenge @bob 5",
        "offer a match to N points (or a money game); it expires after 10 minutes",
    ),
    CommandHelp(
        "accept", "accept", "accept", "accept the challenge, or the resignation, offered to you"
    ),
    CommandHelp("decline", "decline", "decline", "turn down a challenge offered to you"),
    CommandHelp("cancel", "cancel", "cancel", "withdraw the challenge you offered"),
    CommandHelp("roll", "roll", "roll", "roll the dice when it is your turn"),
    CommandHelp(
        "move",
        "move <play>",
        "move 13/7 8/7",
        "play your roll: gnubg notation (24/18*/13, bar/22, 6/off, 8/2(2)) or FIBS (13-7)",
    ),
    CommandHelp("double", "double", "double", "offer the cube before you roll"),
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
        "win the match when your opponent hasn't acted for the claim timeout",
    ),
    CommandHelp(
        "export",
        "export",
        "export",
        "gnubg Position and Match IDs; the .mat record and the dice seed once it ends",
    ),
    CommandHelp("leaderboard", "leaderboard", "leaderboard", "the server's top 10 and your rank"),
    CommandHelp("stats", "stats [@user]", "stats @bob", "one player's rating and record"),
    CommandHelp("help", "help [command]", "help move", "this list, or one command in detail"),
)

BY_NAME = {command.name: command for command in COMMANDS}


def help_text(prefix: str, topic: str | None = None) -> str:
    """The whole list, or one command; raises ``KeyError`` for an unknown topic."""
    if topic:
        command = BY_NAME[topic.strip().lower().removeprefix(prefix).removeprefix("/")]
        return (
            f"**{prefix}{command.usage}**\n{command.summary}\nExample: `{prefix}{command.example}`"
        )
    lines = ["**Backgammon commands** (also as slash commands)"]
    lines += [f"`{prefix}{c.usage}` - {c.summary}" for c in COMMANDS]
    return "\n".join(lines)
