"""What the service says about puzzles: ``!puzzle`` (asking, a verdict, the ratings), a storm and
the daily puzzle."""

from __future__ import annotations

from bot.i18n.core import Message as M
from bot.i18n.core import Plural as P

# -- asking and answering -------------------------------------------------------------------------
RIGHT = M("puzzle_right", "✅ {said} is gnubg's best.")
WRONG = M("puzzle_wrong", "❌ {said} loses {loss}; gnubg's best: **{best}**.")
ANSWER_WITH_PLAY = M("puzzle_answer_with_play", "answer with {form}")
ANSWER_WITH_WORDS = M(
    "puzzle_answer_with_words", "`{prefix}puzzle {yes}` or `{prefix}puzzle {no}` (or the buttons)"
)
YOUR_PLAY = M("puzzle_your_play", "Your play?")
DOUBLE_Q = M("puzzle_double_q", "Double?")
TAKE_OR_PASS_Q = M("puzzle_take_or_pass_q", "Take or pass?")
YOU_ARE = M("puzzle_you_are", "{head} You are {side}.")
ASKED = M("puzzle_asked", "{question} {how}.")

# -- !puzzle --------------------------------------------------------------------------------------
NOT_THE_ONE_WAITING = M(
    "puzzle_not_the_one_waiting",
    "This puzzle is not the one waiting for your answer: `{prefix}puzzle` shows yours.",
)
NONE_WAITING = M(
    "puzzle_none_waiting",
    "No puzzle is waiting for your answer: `{prefix}puzzle` gives you one (or "
    "`{prefix}puzzle rating`, `top`, `misses`).",
)
SEEN_EVERY = M(
    "puzzle_seen_every", "You have seen every puzzle near your rating lately: try again later."
)
WAITING_NOTE = M("puzzle_waiting_note", "waiting for your answer")
YOU_NOTE = M("puzzle_you_note", "you: {rating}")
MISSES_NOTE = P("puzzle_misses_note", "{n} miss lately", "{n} misses lately")
HEAD = M("puzzle_head", "**Puzzle for {name}** ({note}).")
REPLAY_HEAD = M(
    "puzzle_replay_head", "**Replay of a puzzle you missed (unrated) for {name}** ({note})."
)
ANSWER_FIRST = M(
    "puzzle_answer_first", "Answer the puzzle waiting for you first (`{prefix}puzzle` shows it)."
)
NO_MISSES = M(
    "puzzle_no_misses",
    "No missed puzzle to replay among your last {recent}: `{prefix}puzzle` gives you a new one.",
)
MISSED_UNREADABLE = M(
    "puzzle_missed_unreadable", "The puzzle you missed last can't be read any more."
)
UNREADABLE = M(
    "puzzle_unreadable", "Your puzzle can't be read any more: `{prefix}puzzle` gives you another."
)
STILL_WAITING = M("puzzle_still_waiting", "{reason}. Your puzzle is still waiting: {how}.")
ANSWERED_ALREADY = M(
    "puzzle_answered_already",
    "That puzzle was answered already: `{prefix}puzzle` gives you another.",
)
REPLAY_UNRATED = M("puzzle_replay_unrated", "A replay: no rating changes.")
MISSED_DRILL = M(
    "puzzle_missed_drill",
    "Missed: it is one of your drills now (`{prefix}drill`), and `{prefix}puzzle misses` "
    "replays it.",
)
RATING_CHANGES = M(
    "puzzle_rating_changes",
    "Your puzzle rating: {here} (across servers {everywhere}) · the puzzle's: {puzzle}",
)
NO_RATING = M(
    "puzzle_no_rating",
    "You have no puzzle rating here yet: `{prefix}puzzle` gives you a puzzle.",
)
ANSWERS = P("puzzle_answers", "{n} answer", "{n} answers")
RATING = M(
    "puzzle_rating",
    "**Puzzle rating of {name}**: {here} here (RD {deviation}, {answers}), {everywhere} across "
    "servers ({answers_everywhere}). `?`: provisional while the RD is {provisional} or more.",
)
NO_TOP = M(
    "puzzle_no_top",
    "No one here has a settled puzzle rating yet: the puzzle leaderboard shows ratings with an "
    "RD of {deviation} or less (many answers over a few days).",
)
TOP = M("puzzle_top", "**Puzzle leaderboard** (RD {deviation} or less)")

# -- a puzzle storm -------------------------------------------------------------------------------
STORM_PENALTY = M("puzzle_storm_penalty", "{head} -{seconds} s.")
STORM_USAGE = M(
    "puzzle_storm_usage",
    "`{prefix}puzzle storm` starts a storm; `{prefix}puzzle storm top` shows this server's best.",
)
STORM_ANOTHER = M("puzzle_storm_another", "`{prefix}puzzle storm` for another.")
STORM_ELSEWHERE = M(
    "puzzle_storm_elsewhere",
    "Your storm on another server is still running ({left} left): one at a time.",
)
STORM_NO_PUZZLE = M(
    "puzzle_storm_no_puzzle", "No puzzle can be found for a storm here: try again later."
)
STORM_RUNNING = M(
    "puzzle_storm_running", "Your storm is running already: `{prefix}puzzle` shows it."
)
STORM_STARTS = M(
    "puzzle_storm_starts",
    "⚡ **Puzzle storm for {name}**: {left} to solve as many as you can, each harder than the one "
    "before; a wrong answer costs {seconds} s. Ratings don't change.",
)
STORM_UNREADABLE = M("puzzle_storm_unreadable", "Your storm's puzzle can't be read any more.")
STORM_HEAD = M(
    "puzzle_storm_head",
    "**Storm of {name}**: {left} left · score {score} · puzzle {number} (rated {rated}).",
)
STORM_NOT_THE_ONE = M(
    "puzzle_storm_not_the_one",
    "This puzzle is not the one your storm is waiting on: `{prefix}puzzle` shows yours.",
)
STORM_TIME_WAS_UP = M("puzzle_storm_time_was_up", "Time was up before that answer.")
STORM_STILL_WAITING = M(
    "puzzle_storm_still_waiting", "{reason}. Your storm's puzzle is still waiting (the clock runs)."
)
STORM_ANSWERED = M("puzzle_storm_answered", "That puzzle of your storm was answered already.")
STORM_BEST_SO_FAR = M("puzzle_storm_best_so_far", " Your best here so far!")
STORM_BEST = M("puzzle_storm_best", " Your best here: {best}.")
STORM_WRONG_ANSWERS = P("puzzle_storm_wrong_answers", "{n} wrong answer", "{n} wrong answers")
STORM_OVER = M(
    "puzzle_storm_over",
    "⏱️ **The puzzle storm of {name} is over**: {score} solved, {wrong}.{best}",
)
STORM_NONE_ENDED = M(
    "puzzle_storm_none_ended",
    "No puzzle storm has ended here yet: `{prefix}puzzle storm` starts one.",
)
STORMS = P("puzzle_storms", "{n} storm", "{n} storms")
STORM_TOP = M("puzzle_storm_top", "**Puzzle storm leaderboard** (best run)")

# -- the daily puzzle (its commands; the post itself is a background job's, in English) -----------
DAILY_ADMINS_ONLY = M(
    "puzzle_daily_admins_only", "Only admins (Manage Server) can set the daily puzzle."
)
DAILY_USAGE = M(
    "puzzle_daily_usage",
    "`{prefix}puzzle daily #channel 09:00` (optionally a time zone after it)",
)
DAILY_NOT_A_CHANNEL = M(
    "puzzle_daily_not_a_channel", "{word} is not a text channel of this server: name one with `#`."
)
DAILY_CANT_POST = M(
    "puzzle_daily_cant_post",
    "I can't post in {channel}: I need the {missing} permission there. Give it, or name another "
    "channel.",
)
DAILY_NAME_CHANNEL = M("puzzle_daily_name_channel", "Name the channel as `#channel`: {usage}.")
DAILY_WHAT_TIME = M("puzzle_daily_what_time", "At what time? {usage}.")
DAILY_NOT_A_TIME = M(
    "puzzle_daily_not_a_time",
    "`{word}` is not a time of day: write it as `09:00` (24-hour).",
)
DAILY_TOO_MANY_WORDS = M("puzzle_daily_too_many_words", "Too many words: {usage}.")
DAILY_NOT_A_ZONE = M(
    "puzzle_daily_not_a_zone",
    "`{word}` is not a time zone: use a name such as `Europe/Paris`, `America/New_York` or `UTC`.",
)
DAILY_SET = M(
    "puzzle_daily_set",
    "The daily puzzle will be posted in {channel} every day at {time} ({zone}), the first on "
    "{day}. `{prefix}puzzle daily off` stops it.",
)
DAILY_NONE_SET = M("puzzle_daily_none_set", "No daily puzzle is set on this server.")
DAILY_STOPPED = M("puzzle_daily_stopped", "No more daily puzzles on this server.")
DAILY_NONE_YET = M(
    "puzzle_daily_none_yet",
    "This server has no daily puzzle yet: an admin (Manage Server) sets one with "
    "`{prefix}puzzle daily #channel 09:00`.",
)
DAILY_OVER = M(
    "puzzle_daily_over", "That daily puzzle is over: `{prefix}puzzle daily` shows today's."
)
DAILY_UNREADABLE = M("puzzle_daily_unreadable", "Today's daily puzzle can't be read any more.")
DAILY_HEAD = M("puzzle_daily_head", "**Daily puzzle of {day}**")
DAILY_BEST = M("puzzle_daily_best", "✅ gnubg's best")
DAILY_NOT_BEST = M("puzzle_daily_not_best", "❌ not gnubg's best")
DAILY_ANSWERED = M(
    "puzzle_daily_answered",
    "{head}: you answered **{answer}** ({mark}). The answer and how many found it come with "
    "tomorrow's puzzle.",
)
DAILY_SHOWN = M("puzzle_daily_shown", "{head} (in {channel}). You are {side}.")
DAILY_PLAY_PRESS = M(
    "puzzle_daily_play_press", "Your play? Press Answer, or answer with `/puzzle daily 13/7 8/7`"
)
DAILY_PLAY = M("puzzle_daily_play", "Your play? Answer with `/puzzle daily 13/7 8/7`")
DAILY_DOUBLE = M(
    "puzzle_daily_double",
    "Double? Press Double or No double, or `/puzzle daily double` (`no double`)",
)
DAILY_TAKE = M(
    "puzzle_daily_take", "Take or pass? Press Take or Pass, or `/puzzle daily take` (`pass`)"
)
DAILY_ASK = M("puzzle_daily_ask", "{how}: only you see your answer, one per member; rated.")
DAILY_ANSWERED_ALREADY = M(
    "puzzle_daily_answered_already",
    "You answered today's daily puzzle already (**{answer}**): one answer each, the next puzzle "
    "comes tomorrow.",
)
DAILY_REFUSED = M("puzzle_daily_refused", "{reason}. {ask}")
DAILY_ONE_EACH = M(
    "puzzle_daily_one_each", "You answered today's daily puzzle already: one answer each."
)

# -- a day, as the daily puzzle dates it (``Fri 27 Nov 2026``) ------------------------------------
DAY = M("puzzle_day", "{weekday} {day} {month} {year}")
# By ``date.isoweekday()`` (Monday 1) and ``date.month``.
WEEKDAYS = {
    n: M(f"puzzle_weekday_{n}", name)
    for n, name in enumerate(("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"), 1)
}
MONTHS = {
    n: M(f"puzzle_month_{n}", name)
    for n, name in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}
