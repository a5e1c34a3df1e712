"""The drills (:mod:`bot.service.review.drills`): a question, its answer's verdict, the
refusals and a player's counts. Plays, gnubg's figures, its marks and its proper cube action
are filled in as gnubg gives them; typed answers (`take`, `no double`) stay English."""

from __future__ import annotations

from bot.i18n.core import Message as M

NOT_THE_ONE = M(
    "drill_not_the_one",
    "This drill is not the one waiting for your answer: `{prefix}drill` shows yours.",
)
NONE_YET = M(
    "drill_none_yet",
    "You have no drills yet: they are made of your errors in analysed matches (`{prefix}analysis` "
    "after a match) and of the puzzles you miss.",
)
NONE_DUE = M("drill_none_due", "No drill is due: the next one is due {when}.")
TOMORROW = M("drill_tomorrow", "tomorrow")
IN_DAYS = M("drill_in_days", "in {days} days")

# -- a question -----------------------------------------------------------------------------------
WHERE_PUZZLE = M("drill_where_puzzle", "a puzzle you missed")
WHERE_MATCH = M("drill_where_match", "match #{id}, {label}")
ASK_PLAY = M("drill_ask_play", "You rolled **{dice}**: your play? Answer with {form}.")
ASK_DOUBLE = M(
    "drill_ask_double",
    "Your turn, before rolling: double? `{prefix}drill double` or `{prefix}drill no double`.",
)
ASK_TAKE = M("drill_ask_take", "You are doubled: `{prefix}drill take` or `{prefix}drill pass`?")
HEAD = M("drill_head", "**Drill for {name}** ({where})")
HEAD_MINE = M("drill_head_mine", "**Drill for {name}** ({where}, an error of yours)")

# -- an answer ------------------------------------------------------------------------------------
NONE_WAITING = M(
    "drill_none_waiting",
    "No drill is waiting for your answer: `{prefix}drill` shows the next one.",
)
ANSWERED_ALREADY = M(
    "drill_answered_already",
    "That drill was answered already: `{prefix}drill` shows the next one.",
)
RIGHT = M("drill_right", "✅ Right.")
WRONG = M("drill_wrong", "❌ Not this time.")
PUZZLE_RESULT = M(
    "drill_puzzle_result",
    "{mark} {verdict}\nAs a puzzle you said {played} (-{loss}). This drill comes back {when}.",
)
MATCH_RESULT = M(
    "drill_match_result",
    "{mark} {verdict}\nIn the match ({label}{review}): {played} ({marked}, -{loss}). This drill "
    "comes back {when}.",
)
PUZZLE_UNREADABLE = M("drill_puzzle_unreadable", "This drill's puzzle can't be read any more.")
STILL_WAITING = M("drill_still_waiting", "{error}. Your drill is still waiting.")
STILL_WAITING_PLAY = M(
    "drill_still_waiting_play", "{error}. Your drill is still waiting: {dice} to play: {form}."
)
PUZZLE_BEST = M("drill_puzzle_best", "{said} is gnubg's best.")
PUZZLE_LOSES = M("drill_puzzle_loses", "{said} loses {loss}; gnubg's best: **{best}**.")
CANT_GRADE = M(
    "drill_cant_grade",
    "GNU Backgammon can't grade it now ({error}); your drill is still waiting.",
)
UNMARKED = M("drill_unmarked", "unmarked")
BEST_PLAY = M("drill_best_play", "**{play}** is gnubg's best play.")
PLAY_LOSES = M("drill_play_loses", "**{play}** loses {loss} ({named}); gnubg's best: **{best}**.")
QUESTION_DOUBLE = M("drill_question_double", "`{prefix}drill double` or `no double`")
QUESTION_TAKE = M("drill_question_take", "`{prefix}drill take` or `pass`")
CUBE_ONLY = M(
    "drill_cube_only",
    "This drill is a cube decision: answer {question}. Your drill is still waiting.",
)
YOU_SAID = M("drill_you_said", "You said **{said}**; gnubg's proper action: **{action}**")
BEAVERS_OFF = M("drill_beavers_off", ": beavers are off")

# -- counts ---------------------------------------------------------------------------------------
STATS = M(
    "drill_stats",
    "**Drills of {name}**: {due} due now, {learned} learned (coming back in {days} days or "
    "more), {missed} missed last time, {total} in all.",
)
