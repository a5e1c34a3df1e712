"""Every table command, once: its name, arguments, help, handler and the decisions it answers.

The front ends are derived from :data:`COMMANDS`: ``!help`` (:mod:`bot.service.commands.help`),
the text router of the console (:meth:`TableService.run`, through
:func:`~bot.service.commands.schema.read_arguments`), the
Discord hybrid commands (prefix and slash, :mod:`bot.cogs.table`) and the decision buttons
(:mod:`bot.cogs.buttons`). Adding a command is one entry here plus its handler, a method of its
room's commands (e.g. :class:`MatchCommands`) taking ``(place, user, *arguments)``, and its
Discord command, a method of ``TableCog`` taking the entry's arguments (checked against them).

Numbers that are settings (timeouts, the default length) are read from the settings when the help
is shown, never written here: ``details`` (catalog entries, bot/i18n/help_details.py) may use the
fields of ``help._values``.
"""

from __future__ import annotations

from bot.i18n import help_details as details
from bot.i18n import play as say
from bot.i18n import posting as label
from bot.rules.match import RESIGN_LEVELS
from bot.service.commands.schema import (
    Argument,
    Button,
    Command,
    CommandTable,
    Kind,
    Tone,
    Topic,
)
from bot.service.commands.server import ServerCommands
from bot.service.gnubg.commands import EngineCommands
from bot.service.matches.commands import MatchCommands
from bot.service.models import Decision
from bot.service.puzzles.commands import PuzzleCommands
from bot.service.review.commands import ReviewCommands
from bot.service.tournaments.commands import TournamentCommands

_YES, _NO, _GO, _ASIDE = Tone.YES, Tone.NO, Tone.GO, Tone.ASIDE

COMMANDS = CommandTable(
    (
        Command(
            "challenge",
            topic=Topic.MATCH,
            opens_thread=True,
            handler=MatchCommands.challenge,
            example="challenge @bob 5",
            summary="offer a match to N points, or a money game",
            details=details.CHALLENGE,
            arguments=(
                Argument(
                    "opponent",
                    Kind.USER,
                    "Who you challenge",
                    required=True,
                    missing=say.WHO_DO_YOU_CHALLENGE,
                    bots_refused=say.BOTS_DONT_PLAY,
                ),
                Argument(
                    "length",
                    Kind.TEXT,
                    "Points (1-25) or 'money' [jacoby beavers auto]; 'hints'; vs the bot: a "
                    "level, 'tutor'",
                    placeholder="points|money",
                ),
            ),
        ),
        Command(
            "accept",
            topic=Topic.MATCH,
            opens_thread=True,
            handler=MatchCommands.accept,
            example="accept",
            summary="accept the challenge, or the resignation, offered to you",
            buttons=(
                Button(Decision.CHALLENGE, label.ACCEPT, _YES),
                Button(Decision.RESIGNATION, label.ACCEPT, _YES),
            ),
        ),
        Command(
            "decline",
            topic=Topic.MATCH,
            handler=MatchCommands.decline,
            example="decline",
            summary="turn down a challenge offered to you",
            buttons=(Button(Decision.CHALLENGE, label.DECLINE, _NO),),
        ),
        Command(
            "cancel",
            topic=Topic.MATCH,
            handler=MatchCommands.cancel,
            example="cancel",
            summary="withdraw the challenge you offered",
        ),
        Command(
            "rematch",
            topic=Topic.MATCH,
            opens_thread=True,
            handler=MatchCommands.rematch,
            example="rematch",
            summary="after a match: offer the same match again, or accept the rematch offered",
            details=details.REMATCH,
            buttons=(Button(Decision.REMATCH, label.REMATCH, _GO),),
        ),
        Command(
            "roll",
            topic=Topic.PLAY,
            handler=MatchCommands.roll,
            example="roll",
            summary="roll the dice when it is your turn",
            details=details.ROLL,
            buttons=(Button(Decision.TURN, label.ROLL, _GO),),
        ),
        Command(
            "move",
            topic=Topic.PLAY,
            handler=MatchCommands.move,
            example="move 13/7 8/7",
            summary="play your roll: gnubg notation (24/18*/13, bar/22, 6/off, 8/2(2)) or FIBS "
            "(13-7)",
            details=details.MOVE,
            arguments=(
                Argument(
                    "play",
                    Kind.PLAY,
                    "Your play, e.g. 13/7 8/7, bar/22, 6/off or 8/2(2)",
                    required=True,
                ),
            ),
        ),
        Command(
            "double",
            topic=Topic.CUBE,
            handler=MatchCommands.double,
            example="double",
            summary="offer the cube before you roll",
            details=details.DOUBLE,
            buttons=(Button(Decision.TURN, label.DOUBLE, _ASIDE),),
        ),
        Command(
            "take",
            topic=Topic.CUBE,
            handler=MatchCommands.take,
            example="take",
            summary="accept a double: you own the cube at twice the value",
            buttons=(Button(Decision.DOUBLE, label.TAKE, _YES),),
        ),
        Command(
            "drop",
            topic=Topic.CUBE,
            handler=MatchCommands.drop,
            example="drop",
            summary="refuse a double: you lose the game at the current cube",
            buttons=(Button(Decision.DOUBLE, label.DROP, _NO),),
        ),
        Command(
            "beaver",
            topic=Topic.CUBE,
            handler=MatchCommands.beaver,
            example="beaver",
            summary="money games with beavers: take and redouble at once, keeping the cube",
            buttons=(Button(Decision.DOUBLE, label.BEAVER, _GO, money_only=True),),
        ),
        Command(
            "resign",
            topic=Topic.CUBE,
            handler=MatchCommands.resign,
            example="resign gammon",
            summary="offer to resign the game; your opponent accepts or rejects",
            details=details.RESIGN,
            arguments=(
                Argument(
                    "level",
                    Kind.CHOICE,
                    "How much you give up (default: single)",
                    choices=tuple(RESIGN_LEVELS),
                ),
            ),
        ),
        Command(
            "reject",
            topic=Topic.CUBE,
            handler=MatchCommands.reject,
            example="reject",
            summary="turn down a resignation and play on",
            buttons=(Button(Decision.RESIGNATION, label.REJECT, _NO),),
        ),
        Command(
            "hint",
            topic=Topic.GNUBG,
            handler=EngineCommands.hint,
            example="hint",
            summary="GNU Backgammon's advice for your decision, only to you",
            details=details.HINT,
        ),
        Command(
            "board",
            topic=Topic.PLAY,
            handler=MatchCommands.board,
            example="board",
            summary="show the board again, from your side if you play",
        ),
        Command(
            "pips",
            topic=Topic.PLAY,
            handler=MatchCommands.pips,
            example="pips",
            summary="both players' pip counts",
        ),
        Command(
            "score",
            topic=Topic.PLAY,
            handler=MatchCommands.score,
            example="score",
            summary="match score, cube, Crawford",
        ),
        Command(
            "abort",
            topic=Topic.MATCH,
            handler=MatchCommands.abort,
            example="abort",
            summary="cancel the match unrated; both players must type it",
        ),
        Command(
            "claim",
            topic=Topic.MATCH,
            handler=MatchCommands.claim,
            example="claim",
            summary="win the match when your opponent has stopped playing",
            details=details.CLAIM,
        ),
        Command(
            "export",
            topic=Topic.MATCH,
            handler=MatchCommands.export,
            example="export 12",
            summary="gnubg Position and Match IDs; the .mat record and the dice seed once it ends",
            details=details.EXPORT,
            arguments=(
                Argument(
                    "match",
                    Kind.TEXT,
                    "A match number (default: this table's last match)",
                    placeholder="match number",
                ),
            ),
        ),
        Command(
            "void",
            topic=Topic.MATCH,
            handler=MatchCommands.void,
            example="void",
            summary="moderators: end the match in this channel, unrated",
            details=details.VOID,
            guild_only=True,
            moderator=True,
        ),
        Command(
            "analysis",
            topic=Topic.GNUBG,
            handler=EngineCommands.analysis,
            example="analysis 12",
            summary="GNU Backgammon's analysis of a finished match: PR, errors, luck, a chart",
            details=details.ANALYSIS,
            arguments=(
                Argument(
                    "match",
                    Kind.TEXT,
                    "A match number (default: this table's last finished match)",
                    placeholder="match number",
                ),
            ),
            aliases=("analyse", "analyze"),
        ),
        Command(
            "show",
            topic=Topic.GNUBG,
            handler=EngineCommands.show,
            example="show XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10",
            summary="draw a pasted position: an XGID or a gnubg ID",
            details=details.SHOW,
            arguments=(
                Argument(
                    "position",
                    Kind.TEXT,
                    "An XGID, or gnubg's PositionID:MatchID",
                    required=True,
                ),
            ),
        ),
        Command(
            "eval",
            topic=Topic.GNUBG,
            handler=EngineCommands.evaluate,
            example="eval 4HPwATDgc/ABMA:cAkAAAAAAAAE",
            summary="GNU Backgammon's analysis of a pasted position",
            details=details.EVAL,
            arguments=(
                Argument(
                    "position",
                    Kind.TEXT,
                    "An XGID, or gnubg's PositionID:MatchID",
                    required=True,
                ),
            ),
        ),
        Command(
            "tournament",
            topic=Topic.TOURNAMENT,
            opens_thread=True,
            organiser=True,
            guild_only=True,
            handler=TournamentCommands.tournament,
            example="tournament create Spring knockout 3",
            summary="run a tournament: knockout, Swiss or round robin, from sign-up to trophy",
            details=details.TOURNAMENT,
            arguments=(
                Argument(
                    "what",
                    Kind.TOURNAMENT,
                    "create NAME FORMAT LENGTH, join, leave, start, pause, resume, remove, "
                    "result, cancel, report",
                    placeholder="create|join|start|...",
                ),
            ),
        ),
        Command(
            "join",
            topic=Topic.TOURNAMENT,
            guild_only=True,
            handler=TournamentCommands.join,
            example="join",
            summary="join the tournament signing up on this server",
            buttons=(Button(Decision.SIGNUP, label.JOIN, _YES),),
            arguments=(
                Argument("tournament", Kind.TEXT, "Which tournament (default: the one open)"),
            ),
        ),
        Command(
            "leave",
            topic=Topic.TOURNAMENT,
            guild_only=True,
            handler=TournamentCommands.leave,
            example="leave",
            summary="leave a tournament before it starts",
            buttons=(Button(Decision.SIGNUP, label.LEAVE, _NO),),
            arguments=(
                Argument("tournament", Kind.TEXT, "Which tournament (default: the one open)"),
            ),
        ),
        Command(
            "review",
            topic=Topic.GNUBG,
            handler=ReviewCommands.review,
            example="review 12",
            summary="step through an analysed match, each decision against GNU Backgammon's best",
            details=details.REVIEW,
            arguments=(
                Argument(
                    "what",
                    Kind.TEXT,
                    "A match number [decision], 'next' or 'errors'",
                    placeholder="match [decision]|next|errors",
                ),
            ),
            buttons=(
                Button(Decision.REVIEW, "⏮", _ASIDE, word="first"),
                Button(Decision.REVIEW, "◀", _GO, word="previous"),
                Button(Decision.REVIEW, "▶", _GO, word="next"),
                Button(Decision.REVIEW, label.NEXT_ERROR_OF_MINE, _ASIDE, word="mine"),
                Button(Decision.REVIEW, label.NEXT_ERROR, _ASIDE, word="error"),
                Button(Decision.REVIEW, "⏭", _ASIDE, word="last"),
                Button(Decision.ANALYSED, label.REVIEW, _GO, word="open"),
                # ``!review errors``' pages: the same words, on a key of its own (``e12.0``)
                Button(Decision.REVIEW_ERRORS, "⏮", _ASIDE, word="first"),
                Button(Decision.REVIEW_ERRORS, "◀", _GO, word="previous"),
                Button(Decision.REVIEW_ERRORS, "▶", _GO, word="next"),
                Button(Decision.REVIEW_ERRORS, "⏭", _ASIDE, word="last"),
            ),
        ),
        Command(
            "drill",
            topic=Topic.GNUBG,
            handler=ReviewCommands.drill,
            example="drill",
            summary="drill your own errors from analysed matches, spaced out in time",
            details=details.DRILL,
            arguments=(
                Argument(
                    "what",
                    Kind.DRILL_ANSWER,
                    "Empty: the next drill; 'stats'; or your answer (a play, double, take...)",
                    placeholder="stats|answer",
                ),
            ),
            buttons=(
                Button(Decision.DRILL_DOUBLE, label.DOUBLE, _YES, word="double"),
                Button(Decision.DRILL_DOUBLE, label.NO_DOUBLE, _NO, word="nodouble"),
                Button(Decision.DRILL_TAKE, label.TAKE, _YES, word="take"),
                Button(Decision.DRILL_TAKE, label.PASS, _NO, word="pass"),
            ),
        ),
        Command(
            "puzzle",
            topic=Topic.GNUBG,
            handler=PuzzleCommands.puzzle,
            example="puzzle",
            summary="a rated puzzle: find GNU Backgammon's best play or cube action",
            details=details.PUZZLE,
            arguments=(
                Argument(
                    "what",
                    Kind.PUZZLE_ANSWER,
                    "Empty: a puzzle; 'rating', 'top', 'misses', 'storm', 'daily'; or your answer",
                    placeholder="rating|top|misses|storm|daily|answer",
                ),
            ),
            buttons=(
                Button(Decision.PUZZLE_DOUBLE, label.DOUBLE, _YES, word="double"),
                Button(Decision.PUZZLE_DOUBLE, label.NO_DOUBLE, _NO, word="nodouble"),
                Button(Decision.PUZZLE_TAKE, label.TAKE, _YES, word="take"),
                Button(Decision.PUZZLE_TAKE, label.PASS, _NO, word="pass"),
                Button(Decision.DAILY_PLAY, label.ANSWER, _GO, word="daily"),
                Button(Decision.DAILY_DOUBLE, label.DOUBLE, _YES, word="double"),
                Button(Decision.DAILY_DOUBLE, label.NO_DOUBLE, _NO, word="nodouble"),
                Button(Decision.DAILY_TAKE, label.TAKE, _YES, word="take"),
                Button(Decision.DAILY_TAKE, label.PASS, _NO, word="pass"),
                Button(Decision.STORM_DOUBLE, label.DOUBLE, _YES, word="double"),
                Button(Decision.STORM_DOUBLE, label.NO_DOUBLE, _NO, word="nodouble"),
                Button(Decision.STORM_TAKE, label.TAKE, _YES, word="take"),
                Button(Decision.STORM_TAKE, label.PASS, _NO, word="pass"),
            ),
            manager=True,
        ),
        Command(
            "leaderboard",
            topic=Topic.SERVER,
            handler=ServerCommands.leaderboard,
            example="leaderboard",
            summary="the server's top 10 and your rank",
            guild_only=True,
        ),
        Command(
            "dice",
            topic=Topic.SERVER,
            handler=ServerCommands.dice,
            example="dice",
            summary="the server's dice statistics: each number, doubles, chi-square",
            details=details.DICE,
            guild_only=True,
        ),
        Command(
            "stats",
            topic=Topic.SERVER,
            handler=ServerCommands.stats,
            example="stats @bob",
            summary="one player's rating and record",
            arguments=(Argument("member", Kind.USER, "Whose record (default: yours)"),),
        ),
        Command(
            "settings",
            topic=Topic.SERVER,
            handler=ServerCommands.settings,
            example="settings language de",
            summary="the server's language for replies to typed commands",
            details=details.SETTINGS,
            arguments=(
                Argument(
                    "what",
                    Kind.TEXT,
                    "language <code>: en, el, tr, it, de or es (nothing: show the language)",
                    placeholder="language <code>",
                ),
            ),
            guild_only=True,
            moderator=True,
        ),
        Command(
            "help",
            topic=Topic.SERVER,
            handler=ServerCommands.help,
            example="help move",
            summary="this list, or one command in detail",
            arguments=(Argument("command", Kind.COMMAND, "One command to explain"),),
        ),
    )
)

BY_NAME = COMMANDS.by_name  # the names (not the aliases), as slash lists them
