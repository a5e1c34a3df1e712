"""Every table command, once: its name, arguments, help, handler and the decisions it answers.

The front ends are derived from :data:`COMMANDS`: ``!help`` (:mod:`bot.service.commands.help`),
the text router of the console (:meth:`TableService.run`, through
:func:`~bot.service.commands.schema.read_arguments`), the
Discord hybrid commands (prefix and slash, :mod:`bot.cogs.table`) and the decision buttons
(:mod:`bot.cogs.buttons`). Adding a command is one entry here plus its handler, a method of its
room's commands (e.g. :class:`MatchCommands`) taking ``(place, user, *arguments)``, and its
Discord command, a method of ``TableCog`` taking the entry's arguments (checked against them).

Numbers that are settings (timeouts, the default length) are read from the settings when the help
is shown, never written here: ``details`` may use the fields of ``help._values``.
"""

from __future__ import annotations

from bot.i18n import play as say
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
            details="Points: 1 to {max_length} (default {default_length}); `5`, `5 points` and "
            "`5pt` all work. `money` is an unrated money game, which may add: `jacoby` (gammons "
            "count only once the cube has been turned), `beavers` (take and redouble at once, "
            "keeping the cube), `auto` (a tie in the opening roll turns the cube; at most once "
            "per game, or `auto 2`/`auto 3` for more), e.g. "
            "`{p}challenge @bob money jacoby beavers auto`. One challenge or match per channel "
            "(a thread is its own table); a challenge expires after {challenge_minutes}. Add "
            "`hints` to allow `{p}hint` (the match is then unrated). Add `clock 2m` for live "
            "play: each player gets a bank of 2 minutes per point, each decision a free "
            "{clock_delay} first, and a player who runs out of time loses the match. "
            "`{p}challenge bot` (or mention me) starts a game against GNU Backgammon at "
            "once: add a level ({bot_levels}; default {bot_level}) and "
            "`tutor` to hear about costly moves, e.g. `{p}challenge bot 3 expert tutor`.",
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
                Button(Decision.CHALLENGE, "Accept", _YES),
                Button(Decision.RESIGNATION, "Accept", _YES),
            ),
        ),
        Command(
            "decline",
            topic=Topic.MATCH,
            handler=MatchCommands.decline,
            example="decline",
            summary="turn down a challenge offered to you",
            buttons=(Button(Decision.CHALLENGE, "Decline", _NO),),
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
            details="Either player of the table's last match may ask: the other is challenged "
            "on the same terms (length, money-game options, hints), or their rematch is "
            "accepted. Against GNU Backgammon the new match starts at once, at the same level.",
            buttons=(Button(Decision.REMATCH, "Rematch", _GO),),
        ),
        Command(
            "roll",
            topic=Topic.PLAY,
            handler=MatchCommands.roll,
            example="roll",
            summary="roll the dice when it is your turn",
            details="The opening roll happens by itself; when you can't double (the cube is "
            "your opponent's, the Crawford game, a dead cube) the bot rolls for you.",
            buttons=(Button(Decision.TURN, "Roll", _GO),),
        ),
        Command(
            "move",
            topic=Topic.PLAY,
            handler=MatchCommands.move,
            example="move 13/7 8/7",
            summary="play your roll: gnubg notation (24/18*/13, bar/22, 6/off, 8/2(2)) or FIBS "
            "(13-7)",
            details="Moves in any order, `*` optional, `bar` or `25`, `off` or `0`, `(2)` to "
            "repeat. Forced plays and rolls with no legal move are played for you.",
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
            details="You may double before rolling when the cube is in the middle or yours. "
            "There is no cube in the Crawford game (the first game after a player gets within "
            "one point of winning the match) or in a 1-point match, and none when it is dead: "
            "when a doubled game can't change the match for you (your score plus the cube "
            "already wins it).",
            buttons=(Button(Decision.TURN, "Double", _ASIDE),),
        ),
        Command(
            "take",
            topic=Topic.CUBE,
            handler=MatchCommands.take,
            example="take",
            summary="accept a double: you own the cube at twice the value",
            buttons=(Button(Decision.DOUBLE, "Take", _YES),),
        ),
        Command(
            "drop",
            topic=Topic.CUBE,
            handler=MatchCommands.drop,
            example="drop",
            summary="refuse a double: you lose the game at the current cube",
            buttons=(Button(Decision.DOUBLE, "Drop", _NO),),
        ),
        Command(
            "beaver",
            topic=Topic.CUBE,
            handler=MatchCommands.beaver,
            example="beaver",
            summary="money games with beavers: take and redouble at once, keeping the cube",
            buttons=(Button(Decision.DOUBLE, "Beaver", _GO, money_only=True),),
        ),
        Command(
            "resign",
            topic=Topic.CUBE,
            handler=MatchCommands.resign,
            example="resign gammon",
            summary="offer to resign the game; your opponent accepts or rejects",
            details="`single` (the default) gives up the game at the cube's value, `gammon` "
            "twice that, `backgammon` three times.",
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
            buttons=(Button(Decision.RESIGNATION, "Reject", _NO),),
        ),
        Command(
            "hint",
            topic=Topic.GNUBG,
            handler=EngineCommands.hint,
            example="hint",
            summary="GNU Backgammon's advice for your decision, only to you",
            details="Before you roll: the cube decision (no double, double/take, double/pass, "
            "with cubeful equities); after the roll: the five best plays with their equities "
            "and how far each is behind the best; facing a double: take or pass. In games "
            "against the bot (`{p}challenge bot`) and in matches whose challenge said `hints`.",
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
            details="You may claim once your opponent has not acted for {claim_hours} (they are "
            "reminded after {reminder_hours}). A claimed match counts as won. Where GNU "
            "Backgammon runs, the ratings of a claimed match change by your chance of winning "
            "it from the position left (the expected change), and never lower your rating nor "
            "raise theirs; otherwise it is rated as a win.",
        ),
        Command(
            "export",
            topic=Topic.MATCH,
            handler=MatchCommands.export,
            example="export 12",
            summary="gnubg Position and Match IDs; the .mat record and the dice seed once it ends",
            details="Without a number: this table's last match. With one (`#12` or `12`): that "
            "match of this server, wherever it was played.",
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
            details="For a stuck or abandoned match: anyone with Manage Messages in the channel "
            "can void it. Nobody wins and ratings don't change.",
            guild_only=True,
            moderator=True,
        ),
        Command(
            "analysis",
            topic=Topic.GNUBG,
            handler=EngineCommands.analysis,
            example="analysis 12",
            summary="GNU Backgammon's analysis of a finished match: PR, errors, luck, a chart",
            details="Without a number: this table's last finished match. Per player: the PR and "
            "gnubg's error rate, checker and cube errors and blunders, luck, the three worst "
            "decisions with the better play; and a chart of the winning chances. An analysis "
            "takes a while the first time (a message shows how far it is); then it is kept.",
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
            details="Reads an XGID (with or without `XGID=`), a gnubg ID "
            "(`PositionID:MatchID`, or as gnubg prints it: `Position ID: ... Match ID: ...`) or "
            "a Position ID alone (a money game, X to roll). Shows the board from the side of "
            "the player on roll (X and O, as XG names them), the pips, cube and score, and both "
            "IDs to copy. Works in any channel, with or without a match there.",
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
            details="The position as `{p}show` draws it, with gnubg's 2-ply chances (win, "
            "gammon, backgammon), the cubeless equity, the cube action before a roll (or the "
            "answer to a double offered) and the five best plays when the dice are rolled.",
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
            details="Organisers (Manage Server, or the role {tournament_role}) create one: "
            "`{p}tournament create Spring knockout 3` (3-point matches), `{p}tournament create "
            "Autumn swiss 4 rounds 1`, `{p}tournament create League roundrobin 5` (up to 10 "
            "players); then `clock 2m` (live) or `days 3` (each match within 3 days; default 7), "
            "`unrated`, `limit 16`, `start 2h`. Players `{p}join` or press Join. The organiser: "
            "`start`, `pause`, `resume`, `remove @user reason`, `result 2.3 @winner reason` (or "
            "`none`), `cancel`. `{p}tournament` shows the round, its matches and the standings; "
            "`{p}tournament report` the analysis of every match, per player. Each match is "
            "played in a thread of its own; the next round is paired when the last match of a "
            "round ends.",
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
            buttons=(Button(Decision.SIGNUP, "Join", _YES),),
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
            buttons=(Button(Decision.SIGNUP, "Leave", _NO),),
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
            details="`{p}review 12` opens match 12's review at its first decision (without a "
            "number: this table's last finished match), `{p}review 12 17` at its 17th, "
            "`{p}review next` the page after the one you last saw, `{p}review errors` lists every "
            "decision marked doubtful or worse, in one message paged by its buttons. Each page "
            "shows the board before the decision with the play made (amber) and gnubg's best "
            "(dashed cyan) as arrows, gnubg's five "
            "best plays or its cube figures, the error class (gnubg's marks: doubtful, error, "
            "blunder), the luck of the roll, and the XGID and gnubg ID. Buttons page through it; "
            "a press by anyone but the players gives them a copy of their own.",
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
                Button(Decision.REVIEW, "Next error of mine", _ASIDE, word="mine"),
                Button(Decision.REVIEW, "Next error", _ASIDE, word="error"),
                Button(Decision.REVIEW, "⏭", _ASIDE, word="last"),
                Button(Decision.ANALYSED, "Review", _GO, word="open"),
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
            details="Each decision of yours that GNU Backgammon marked bad or very bad in an "
            "analysed match becomes a drill. `{p}drill` shows the most overdue one: the board "
            "and the roll, never the answer. Answer with your play (`{p}drill 13/7 8/7`) or the "
            "cube action (`{p}drill double`, `no double`, `take`, `pass`, or its buttons): a "
            "play losing under 0.030 against gnubg's best is right. Right answers come back "
            "after 1 day, 6 days, then ever longer (SM-2); a miss comes back tomorrow. "
            "`{p}drill stats`: how many are due, learned, missed last time.",
            arguments=(
                Argument(
                    "what",
                    Kind.DRILL_ANSWER,
                    "Empty: the next drill; 'stats'; or your answer (a play, double, take...)",
                    placeholder="stats|answer",
                ),
            ),
            buttons=(
                Button(Decision.DRILL_DOUBLE, "Double", _YES, word="double"),
                Button(Decision.DRILL_DOUBLE, "No double", _NO, word="nodouble"),
                Button(Decision.DRILL_TAKE, "Take", _YES, word="take"),
                Button(Decision.DRILL_TAKE, "Pass", _NO, word="pass"),
            ),
        ),
        Command(
            "puzzle",
            topic=Topic.GNUBG,
            handler=PuzzleCommands.puzzle,
            example="puzzle",
            summary="a rated puzzle: find GNU Backgammon's best play or cube action",
            details="`{p}puzzle` gives you a position near your puzzle rating, from the bot's "
            "pool and this server's analysed matches: answer with your play "
            "(`{p}puzzle 13/7 8/7`) or the cube action (`{p}puzzle double`, `no double`, "
            "`take`, `pass`, or its buttons). The verdict: right or the equity lost, gnubg's "
            "top three at 2-ply, the XGID, and your rating change (Glicko-2; `?` while "
            "provisional). `{p}puzzle rating`: yours here and across servers; `{p}puzzle top`: "
            "this server's leaderboard; `{p}puzzle misses`: replay your latest miss (unrated; "
            "every miss is one of your drills too). `{p}puzzle storm`: three minutes of puzzles "
            "rising in rating, a wrong answer costs 10 s (unrated); `{p}puzzle storm top`: the "
            "server's best storms. "
            "The daily puzzle: `{p}puzzle daily` shows today's, `/puzzle daily 13/7 8/7` "
            "answers it (privately, once); admins (Manage Server) post it each day with "
            "`{p}puzzle daily #channel 09:00 [time zone]`, or stop it with `{p}puzzle daily off`.",
            arguments=(
                Argument(
                    "what",
                    Kind.PUZZLE_ANSWER,
                    "Empty: a puzzle; 'rating', 'top', 'misses', 'storm', 'daily'; or your answer",
                    placeholder="rating|top|misses|storm|daily|answer",
                ),
            ),
            buttons=(
                Button(Decision.PUZZLE_DOUBLE, "Double", _YES, word="double"),
                Button(Decision.PUZZLE_DOUBLE, "No double", _NO, word="nodouble"),
                Button(Decision.PUZZLE_TAKE, "Take", _YES, word="take"),
                Button(Decision.PUZZLE_TAKE, "Pass", _NO, word="pass"),
                Button(Decision.DAILY_PLAY, "Answer", _GO, word="daily"),
                Button(Decision.DAILY_DOUBLE, "Double", _YES, word="double"),
                Button(Decision.DAILY_DOUBLE, "No double", _NO, word="nodouble"),
                Button(Decision.DAILY_TAKE, "Take", _YES, word="take"),
                Button(Decision.DAILY_TAKE, "Pass", _NO, word="pass"),
                Button(Decision.STORM_DOUBLE, "Double", _YES, word="double"),
                Button(Decision.STORM_DOUBLE, "No double", _NO, word="nodouble"),
                Button(Decision.STORM_TAKE, "Take", _YES, word="take"),
                Button(Decision.STORM_TAKE, "Pass", _NO, word="pass"),
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
            details="Counts every die rolled in this server's matches, opening rolls included, "
            "and tests them against fair dice (Pearson's chi-square; a small p is unusual).",
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
            details="`{p}settings` shows it; moderators (Manage Messages) choose one of `en` "
            "English, `el` Greek, `tr` Turkish, `it` Italian, `de` German, `es` Spanish, e.g. "
            "`{p}settings language de`. Slash commands and buttons answer each user in their "
            "own Discord language (the server's when the bot doesn't speak theirs).",
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
