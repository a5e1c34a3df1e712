"""GNU Backgammon's rooms: ``!hint`` and the tutor (:mod:`bot.service.gnubg.coach`), the bot's
turns and its challenge (``opponent``), ``!analysis``'s refusals (``analysis``, ``budget``) and
``!show``/``!eval``'s refusal (``positions``). Numbers, plays and gnubg's own words (its proper
cube action) are filled in as gnubg gives them."""

from __future__ import annotations

from bot.i18n.core import Message as M

UNAVAILABLE = M(
    "gnubg_unavailable",
    "GNU Backgammon isn't installed where this bot runs (its package has no build for this "
    "machine), so the bot opponent, hints and analysis are off.",
)
BUSY = M(
    "gnubg_busy",
    "You already have {most} requests to GNU Backgammon in progress: wait for their answers, "
    "then ask again.",
)

# -- !hint ----------------------------------------------------------------------------------------
NO_DOUBLE = M("gnubg_no_double", "No double")
DOUBLE_TAKE = M("gnubg_double_take", "Double, take")
DOUBLE_PASS = M("gnubg_double_pass", "Double, pass")
TAKE = M("gnubg_take", "Take")
PASS = M("gnubg_pass", "Pass")
ANSWER = {
    "beaver": M("gnubg_answer_beaver", "Beaver"),
    "take": M("gnubg_answer_take", "Take"),
    "pass": M("gnubg_answer_pass", "Pass"),
}
CUBE_HINT = M(
    "gnubg_cube_hint",
    "Cube advice ({plies}-ply, cubeful equities for you):\n```\n{table}\n```\n"
    "Proper cube action: **{proper}**.",
)
TAKE_HINT = M(
    "gnubg_take_hint",
    "Facing the double ({plies}-ply, cubeful equities for you):\n```\n{table}\n```\n"
    "**{answer}** ({proper}).",
)
PLAYS_HINT = M(
    "gnubg_plays_hint",
    "Best plays for {dice} (equity, difference to the best):\n```\n{table}\n```",
)
ACCEPT_RESIGNATION = M(
    "gnubg_accept_resignation", "Resignation offered ({offered}): **accept** it."
)
REJECT_RESIGNATION = M(
    "gnubg_reject_resignation", "Resignation offered ({offered}): **reject** it."
)
NO_HINT = M("gnubg_no_hint", "No hint: {why}")
HINTS_OFF = M(
    "gnubg_hints_off",
    "Hints are off in this match: they come with games against the bot (`{prefix}challenge "
    "bot`) and with challenges that allow them (`{prefix}challenge @bob 5 hints`, unrated).",
)
HINTS_FOR_PLAYERS = M("gnubg_hints_for_players", "Hints are for the players of this match.")
NOT_YOUR_DECISION = M(
    "gnubg_not_your_decision", "It's not your decision now: ask for a hint on your turn."
)
NO_CUBE_DECISION = M(
    "gnubg_no_cube_decision",
    "You can't double now, so there is no cube decision: `{prefix}roll`, then ask for the best "
    "plays.",
)

# -- the tutor ------------------------------------------------------------------------------------
TUTOR_SILENT = M("gnubg_tutor_silent", "Tutor: no comment this time ({why}).")
TUTOR_PLAY = M(
    "gnubg_tutor_play",
    "Tutor: `{play}` loses {loss} in equity. Better: `{best}` ({best_equity} against "
    "{played_equity}).",
)
TUTOR_CUBE = M(
    "gnubg_tutor_cube",
    "Tutor: {done}: that loses {loss} in equity. Proper cube action: **{proper}**.\n```\n"
    "{table}\n```",
)
CUBE_DONE = {
    "roll": M("gnubg_done_roll", "You rolled without doubling"),
    "double": M("gnubg_done_double", "You doubled"),
    "take": M("gnubg_done_take", "You took"),
    "beaver": M("gnubg_done_beaver", "You beavered"),
    "drop": M("gnubg_done_drop", "You passed"),
}

# -- the bot as an opponent -----------------------------------------------------------------------
ONE_LEVEL = M("gnubg_one_level", "Name one level, not {levels}.")
LEVEL_AND_TUTOR = M(
    "gnubg_level_and_tutor",
    "{refusal} Against the bot you may also name a level ({levels}) and add `tutor`.",
)
TOO_MANY_BOT_GAMES = M(
    "gnubg_too_many_bot_games",
    "You already play {most} games against the bot ({where}): finish or resign one before you "
    "start another.",
)
QUEUE_DONE = M(
    "gnubg_queue_done", "The bot was busy: your turn waited in the queue; here is its reply."
)
QUEUE_MOVED_ON = M(
    "gnubg_queue_moved_on",
    "The bot was busy: your turn waited in the queue; the game has moved on since.",
)
BOT_BUSY = M("gnubg_bot_busy", "The bot is busy: your turn is queued ({ahead} ahead).")
QUEUE_GONE = M(
    "gnubg_queue_gone",
    "That turn of the bot's is no longer queued here (the bot restarted since: it takes the "
    "turns it owes at startup). `{prefix}board` shows the game.",
)
TURN_FAILED = M(
    "gnubg_turn_failed",
    "{name} could not take its turn. The game waits for it: the bot tries again at the next "
    "command here, e.g. `{prefix}board`.",
)
TURN_FAILED_WHY = M(
    "gnubg_turn_failed_why",
    "{name} could not take its turn. {why} The game waits for it: the bot tries again at the "
    "next command here, e.g. `{prefix}board`.",
)

# -- what went wrong with GNU Backgammon (an EngineFailure's, worded where it is said) ------------
CRASHED = M("gnubg_crashed", "GNU Backgammon crashed while thinking; it has been restarted.")
TIMED_OUT = M(
    "gnubg_timed_out",
    "GNU Backgammon thought for more than {seconds} s and was stopped; it has been restarted.",
)
CLOSED = M("gnubg_closed", "GNU Backgammon is shutting down: try again once the bot is back.")
ANALYSIS_RESTARTING = M(
    "gnubg_analysis_restarting",
    "GNU Backgammon's analysis worker kept restarting during this analysis, so there is no "
    "result. Try again later.",
)
NO_PLAY_FOUND = M("gnubg_no_play_found", "GNU Backgammon found no play for {position}.")
BROKE_THE_RULES = M("gnubg_broke_the_rules", "GNU Backgammon's answer broke the rules: {error}")
TRY_AGAIN = M("gnubg_try_again", "Try again.")

# -- !analysis ------------------------------------------------------------------------------------
ANALYSES_WAITING = M(
    "gnubg_analyses_waiting",
    "You already have {most} analyses waiting or running: ask for more once one of them is done.",
)
HERE_STILL_PLAYED = M(
    "gnubg_here_still_played",
    "The match here (#{id}) is still being played: it can be analysed once it ends. An earlier "
    "one: `{prefix}analysis <match number>`.",
)
NONE_FINISHED_HERE = M(
    "gnubg_none_finished_here",
    "No match has finished at this table yet: `{prefix}analysis <match number>` for one played "
    "elsewhere on this server.",
)
STILL_PLAYED = M(
    "gnubg_still_played",
    "Match #{id} is still being played: it can be analysed once it ends.",
)
ABORTED = M("gnubg_aborted", "Match #{id} was aborted: only finished matches are analysed.")
ANALYSIS_STOPPED = M(
    "gnubg_analysis_stopped",
    "The analysis of match #{id} stopped: the bot is shutting down. It starts again when the "
    "bot is back.",
)
ANALYSIS_NOT_RUNNING = M(
    "gnubg_analysis_not_running",
    "The analysis of match #{id} is not running: ask for it with `{prefix}analysis {id}`.",
)

# -- !show and !eval ------------------------------------------------------------------------------
ACCEPTED = M(
    "gnubg_accepted",
    "Paste an XGID (`XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10`), a gnubg ID "
    "(`4HPwATDgc/ABMA:cAkAAAAAAAAE`) or a Position ID alone.",
)
