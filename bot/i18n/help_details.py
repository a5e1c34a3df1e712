"""``!help <command>``'s details, the lines under a command's summary (the summary is its slash
command's description, :func:`bot.i18n.help.summary_of`). Fields are ``help._values``: the
settings' numbers and words (``{p}`` the prefix)."""

from __future__ import annotations

from bot.i18n.core import Message as M

CHALLENGE = M(
    "help_details_challenge",
    "Points: 1 to {max_length} (default {default_length}); `5`, `5 points` and `5pt` all "
    "work. `money` is an unrated money game, which may add: `jacoby` (gammons count only "
    "once the cube has been turned), `beavers` (take and redouble at once, keeping the "
    "cube), `auto` (a tie in the opening roll turns the cube; at most once per game, or "
    "`auto 2`/`auto 3` for more), e.g. `{p}challenge @bob money jacoby beavers auto`. One"
    " challenge or match per channel (a thread is its own table); a challenge expires "
    "after {challenge_minutes}. Add `hints` to allow `{p}hint` (the match is then "
    "unrated). Add `clock 2m` for live play: each player gets a bank of 2 minutes per "
    "point, each decision a free {clock_delay} first, and a player who runs out of time "
    "loses the match. `{p}challenge bot` (or mention me) starts a game against GNU "
    "Backgammon at once: add a level ({bot_levels}; default {bot_level}) and `tutor` to "
    "hear about costly moves, e.g. `{p}challenge bot 3 expert tutor`.",
)

REMATCH = M(
    "help_details_rematch",
    "Either player of the table's last match may ask: the other is challenged on the same"
    " terms (length, money-game options, hints), or their rematch is accepted. Against "
    "GNU Backgammon the new match starts at once, at the same level.",
)

ROLL = M(
    "help_details_roll",
    "The opening roll happens by itself; when you can't double (the cube is your "
    "opponent's, the Crawford game, a dead cube) the bot rolls for you.",
)

MOVE = M(
    "help_details_move",
    "Moves in any order, `*` optional, `bar` or `25`, `off` or `0`, `(2)` to repeat. "
    "Forced plays and rolls with no legal move are played for you.",
)

DOUBLE = M(
    "help_details_double",
    "You may double before rolling when the cube is in the middle or yours. There is no "
    "cube in the Crawford game (the first game after a player gets within one point of "
    "winning the match) or in a 1-point match, and none when it is dead: when a doubled "
    "game can't change the match for you (your score plus the cube already wins it).",
)

RESIGN = M(
    "help_details_resign",
    "`single` (the default) gives up the game at the cube's value, `gammon` twice that, "
    "`backgammon` three times.",
)

HINT = M(
    "help_details_hint",
    "Before you roll: the cube decision (no double, double/take, double/pass, with "
    "cubeful equities); after the roll: the five best plays with their equities and how "
    "far each is behind the best; facing a double: take or pass. In games against the bot"
    " (`{p}challenge bot`) and in matches whose challenge said `hints`.",
)

CLAIM = M(
    "help_details_claim",
    "You may claim once your opponent has not acted for {claim_hours} (they are reminded "
    "after {reminder_hours}). A claimed match counts as won. Where GNU Backgammon runs, "
    "the ratings of a claimed match change by your chance of winning it from the position"
    " left (the expected change), and never lower your rating nor raise theirs; otherwise"
    " it is rated as a win.",
)

EXPORT = M(
    "help_details_export",
    "Without a number: this table's last match. With one (`#12` or `12`): that match of "
    "this server, wherever it was played.",
)

VOID = M(
    "help_details_void",
    "For a stuck or abandoned match: anyone with Manage Messages in the channel can void "
    "it. Nobody wins and ratings don't change.",
)

ANALYSIS = M(
    "help_details_analysis",
    "Without a number: this table's last finished match. Per player: the PR and gnubg's "
    "error rate, checker and cube errors and blunders, luck, the three worst decisions "
    "with the better play; and a chart of the winning chances. An analysis takes a while "
    "the first time (a message shows how far it is); then it is kept.",
)

SHOW = M(
    "help_details_show",
    "Reads an XGID (with or without `XGID=`), a gnubg ID (`PositionID:MatchID`, or as "
    "gnubg prints it: `Position ID: ... Match ID: ...`) or a Position ID alone (a money "
    "game, X to roll). Shows the board from the side of the player on roll (X and O, as "
    "XG names them), the pips, cube and score, and both IDs to copy. Works in any "
    "channel, with or without a match there.",
)

EVAL = M(
    "help_details_eval",
    "The position as `{p}show` draws it, with gnubg's 2-ply chances (win, gammon, "
    "backgammon), the cubeless equity, the cube action before a roll (or the answer to a "
    "double offered) and the five best plays when the dice are rolled.",
)

TOURNAMENT = M(
    "help_details_tournament",
    "Organisers (Manage Server, or the role {tournament_role}) create one: `{p}tournament"
    " create Spring knockout 3` (3-point matches), `{p}tournament create Autumn swiss 4 "
    "rounds 1`, `{p}tournament create League roundrobin 5` (up to 10 players); then "
    "`clock 2m` (live) or `days 3` (each match within 3 days; default 7), `unrated`, "
    "`limit 16`, `start 2h`. Players `{p}join` or press Join. The organiser: `start`, "
    "`pause`, `resume`, `remove @user reason`, `result 2.3 @winner reason` (or `none`), "
    "`cancel`. `{p}tournament` shows the round, its matches and the standings; "
    "`{p}tournament report` the analysis of every match, per player. Each match is played"
    " in a thread of its own; the next round is paired when the last match of a round "
    "ends.",
)

REVIEW = M(
    "help_details_review",
    "`{p}review 12` opens match 12's review at its first decision (without a number: this"
    " table's last finished match), `{p}review 12 17` at its 17th, `{p}review next` the "
    "page after the one you last saw, `{p}review errors` lists every decision marked "
    "doubtful or worse, in one message paged by its buttons. Each page shows the board "
    "before the decision with the play made (amber) and gnubg's best (dashed cyan) as "
    "arrows, gnubg's five best plays or its cube figures, the error class (gnubg's marks:"
    " doubtful, error, blunder), the luck of the roll, and the XGID and gnubg ID. Buttons"
    " page through it; a press by anyone but the players gives them a copy of their own.",
)

DRILL = M(
    "help_details_drill",
    "Each decision of yours that GNU Backgammon marked bad or very bad in an analysed "
    "match becomes a drill. `{p}drill` shows the most overdue one: the board and the "
    "roll, never the answer. Answer with your play (`{p}drill 13/7 8/7`) or the cube "
    "action (`{p}drill double`, `no double`, `take`, `pass`, or its buttons): a play "
    "losing under 0.030 against gnubg's best is right. Right answers come back after 1 "
    "day, 6 days, then ever longer (SM-2); a miss comes back tomorrow. `{p}drill stats`: "
    "how many are due, learned, missed last time.",
)

PUZZLE = M(
    "help_details_puzzle",
    "`{p}puzzle` gives you a position near your puzzle rating, from the bot's pool and "
    "this server's analysed matches: answer with your play (`{p}puzzle 13/7 8/7`) or the "
    "cube action (`{p}puzzle double`, `no double`, `take`, `pass`, or its buttons). The "
    "verdict: right or the equity lost, gnubg's top three at 2-ply, the XGID, and your "
    "rating change (Glicko-2; `?` while provisional). `{p}puzzle rating`: yours here and "
    "across servers; `{p}puzzle top`: this server's leaderboard; `{p}puzzle misses`: "
    "replay your latest miss (unrated; every miss is one of your drills too). `{p}puzzle "
    "storm`: three minutes of puzzles rising in rating, a wrong answer costs 10 s "
    "(unrated); `{p}puzzle storm top`: the server's best storms. The daily puzzle: "
    "`{p}puzzle daily` shows today's, `/puzzle daily 13/7 8/7` answers it (privately, "
    "once); admins (Manage Server) post it each day with `{p}puzzle daily #channel 09:00 "
    "[time zone]`, or stop it with `{p}puzzle daily off`.",
)

DICE = M(
    "help_details_dice",
    "Counts every die rolled in this server's matches, opening rolls included, and tests "
    "them against fair dice (Pearson's chi-square; a small p is unusual).",
)

SETTINGS = M(
    "help_details_settings",
    "`{p}settings` shows it; moderators (Manage Messages) choose one of `en` English, "
    "`el` Greek, `tr` Turkish, `it` Italian, `de` German, `es` Spanish, e.g. `{p}settings"
    " language de`. Slash commands and buttons answer each user in their own Discord "
    "language (the server's when the bot doesn't speak theirs).",
)

# ``{tournament_role}`` when no role is set.
ROLE_UNSET = M("help_details_role_unset", "the server names with TOURNAMENT_ROLE")
