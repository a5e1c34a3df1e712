"""What the untranslated count did not see (issue 34): a match's start against GNU Backgammon
or in a tournament, a match's end (its summary), ``!export``, the descriptions of a position
(``!show``, ``!eval``, puzzles), ``!eval``'s figures, ``!analysis`` and ``!review``'s figures.
Numbers, plays, IDs and gnubg's marks are filled in as gnubg gives them."""

from __future__ import annotations

from bot.i18n.core import Language
from bot.i18n.core import Message as M
from bot.i18n.core import Plural as P

# -- a match's start ------------------------------------------------------------------------------
BOT_MATCH_STARTS = M(
    "gnubg_bot_match_starts",
    "{user} vs {bot} ({level}): {terms}{tutor}, {rated}; `{prefix}hint` for advice. Dice "
    "commitment (SHA-256 of the secret seed, revealed at the end): `{commitment}`",
)
WITH_TUTOR = M("gnubg_with_tutor", ", with the tutor")
RATED = M("gnubg_rated", "rated")
UNRATED = M("gnubg_unrated", "unrated")
BOT_PLAYS = M("gnubg_bot_plays", "{user} plays {bot} ({level}).")
TOURNAMENT_MATCH_STARTS = M(
    "tournament_match_starts",
    "**{name}**, round {round}: {first} vs {second}, {kind}.{by} Dice commitment: `{commitment}`",
)
# Called with n = 1 or 0 (the form) and days (a number of days, 0.5 possible).
TOURNAMENT_WITHIN = P(
    "tournament_within", " To be played within {days} day.", " To be played within {days} days."
)

# -- a match's end --------------------------------------------------------------------------------
RATINGS = M("play_ratings", "Ratings: {changes}.")
UNRATED_END = M("play_unrated_end", "Unrated: ratings don't change.")
AFTER_THE_END = M(
    "play_after_the_end",
    "`{prefix}analysis` for GNU Backgammon's review of the match; `{prefix}rematch` (or the "
    "button) to play it again.",
)

# -- !export --------------------------------------------------------------------------------------
EXPORT_MATCH = M("export_match", "Match #{id}, {first} vs {second}.")
EXPORT_IDS = M("export_ids", "GNU Backgammon ID: `{ids}` (Position ID:Match ID)")
EXPORT_COMMITMENT = M("export_commitment", "Dice commitment: `{commitment}`")
EXPORT_LATER = M("export_later", "The `.mat` record and the dice seed come when the match ends.")
EXPORT_SEED = M("export_seed", "Dice seed: `{seed}`; the match used dice 0-{last}.")
# How anyone checks the dice from the seed, said in the reply itself (Discord's users never see
# the README): bot/rules/dice.py is what it describes.
CHECK_THE_DICE = M(
    "export_check_the_dice",
    "To check every roll: the SHA-256 of the seed is the commitment; die n is the first byte "
    "below 252 of SHA-256(seed + n as 8 bytes, big-endian), as byte % 6 + 1 (all 32 bytes 252 "
    "or more: hash the hash again); each roll takes the next two dice, opening rolls included.",
)

# -- a pasted position (!show, !eval, puzzles): X and O are the players' names there -------------
POSITION_DOUBLES = M("position_doubles", "{mover} doubles to {cube}: {other} to take or pass")
POSITION_TO_PLAY = M("position_to_play", "{mover} to play {dice}")
POSITION_TO_ROLL = M("position_to_roll", "{mover} to roll or double")
POSITION_MONEY = M("position_money", "money game")
POSITION_BEAVERS = M("position_beavers", "beavers")
POSITION_SESSION = M("position_session", ", session X {x}, O {o}")
POSITION_MATCH = P(
    "position_match", "{n}-point match, X {x}, O {o}", "{n}-point match, X {x}, O {o}"
)
POSITION_CRAWFORD = M("position_crawford", ", Crawford game")
POSITION_POST_CRAWFORD = M("position_post_crawford", ", post-Crawford")
POSITION_NO_CUBE = M("position_no_cube", "no cube (Crawford)")
POSITION_CENTRED = M("position_centred", "cube {cube}, centred")
POSITION_OWNED = M("position_owned", "cube {cube}, {owner} owns it")
POSITION_PIPS = M("position_pips", "pips X {x}, O {o} ({lead})")

# -- !eval ----------------------------------------------------------------------------------------
EVAL_CHANCES = M(
    "eval_chances",
    "gnubg {plies}-ply, for {name}{when}: win {win} (gammon {win_gammon}, backgammon "
    "{win_backgammon}), lose {lose} (gammon {lose_gammon}, backgammon {lose_backgammon}); "
    "cubeless equity {equity}",
)
EVAL_BEFORE_THE_ROLL = M("eval_before_the_roll", " before the roll (any roll, not yet this {dice})")
EVAL_CUBE = M("eval_cube", "Cube: **{proper}**")
EVAL_ANSWER = M("eval_answer", "{taker} should **{answer}** ({proper})")
EVAL_EQUITIES = M("eval_equities", "{head}. {equities} ({kind}, for {name})")
EVAL_CUBEFUL = M("eval_cubeful", "cubeful")
EVAL_NO_PLAY = M("eval_no_play", "{mover} has no legal play with {dice}.")
EVAL_PLAYS = M("eval_plays", "Best plays for {mover}'s {dice} ({kind} equity):")
EVAL_CANT_DOUBLE = M("eval_cant_double", "Cube: {name} can't double here.")
EVAL_FAILED = M("eval_failed", "No analysis: {why}")
# The taker's answer in "X should **take**".
EVAL_ANSWERS = {
    "beaver": M("eval_answer_beaver", "beaver"),
    "take": M("eval_answer_take", "take"),
    "pass": M("eval_answer_pass", "pass"),
}

# gnubg's proper cube actions (bot/gnubg/stored_decisions.py's list), by its own English words,
# in the catalog's terms; one gnubg adds later is shown as gnubg says it (:func:`cube_action`).
CUBE_ACTIONS = {
    text: M("cube_action_" + key, text)
    for key, text in (
        ("no_double_take", "No double, take"),
        ("no_double_beaver", "No double, beaver"),
        ("no_redouble_take", "No redouble, take"),
        ("no_redouble_beaver", "No redouble, beaver"),
        ("double_take", "Double, take"),
        ("double_pass", "Double, pass"),
        ("double_beaver", "Double, beaver"),
        ("redouble_take", "Redouble, take"),
        ("redouble_pass", "Redouble, pass"),
        ("too_good_double_take", "Too good to double, take"),
        ("too_good_double_pass", "Too good to double, pass"),
        ("too_good_redouble_take", "Too good to redouble, take"),
        ("too_good_redouble_pass", "Too good to redouble, pass"),
        ("never_double_take", "Never double, take"),
        ("never_redouble_take", "Never redouble, take"),
        ("optional_double_take", "Optional double, take"),
        ("optional_double_pass", "Optional double, pass"),
        ("optional_double_beaver", "Optional double, beaver"),
        ("optional_redouble_take", "Optional redouble, take"),
        ("optional_redouble_pass", "Optional redouble, pass"),
    )
}


def cube_action(proper: str, language: Language) -> str:
    """gnubg's proper cube action in ``language`` (as gnubg says it if unknown)."""
    found = CUBE_ACTIONS.get(proper)
    return proper if found is None else found(language)


# -- !analysis: its progress and its result -------------------------------------------------------
ANALYSIS_QUEUED = M(
    "analysis_queued", "GNU Backgammon will analyse match #{id} ({first} vs {second}): {wait}."
)
ANALYSIS_NEXT = M("analysis_next", "next in line")
ANALYSIS_AHEAD = P("analysis_ahead", "{n} analysis ahead", "{n} analyses ahead")
ANALYSIS_RUNNING = M(
    "analysis_running",
    "GNU Backgammon is analysing match #{id} ({first} vs {second}) at {plies}-ply: {so_far}…",
)
ANALYSIS_GAMES_DONE = M("analysis_games_done", "game {done} of {total} done")
ANALYSIS_STARTED = M("analysis_started", "started")
ANALYSIS_FAILED = M(
    "analysis_failed",
    "The analysis of match #{id} failed: {error} Ask again with `{prefix}analysis {id}`.",
)
ANALYSIS_WENT_WRONG = M("analysis_went_wrong", "something went wrong (error {error}).")
ANALYSIS_HEAD = M(
    "analysis_head",
    "**Analysis of match #{id} ({first} vs {second})**: {kind}, GNU Backgammon at "
    "{plies}-ply{seconds}.",
)
ANALYSIS_SECONDS = M("analysis_seconds", ", {seconds} s")
ANALYSIS_TOO_FEW = M(
    "analysis_too_few", "Too few decisions for a PR: {who} ({needed} needed){chart}."
)
ANALYSIS_NOTHING_TO_CHART = M("analysis_nothing_to_chart", "; nothing to chart")
ANALYSIS_NO_PR = M("analysis_no_pr", "{decisions}, too few for a PR")
DECISIONS = P("analysis_decisions", "{n} decision", "{n} decisions")
ERRORS = P("analysis_errors", "{n} error", "{n} errors")
BLUNDERS = P("analysis_blunders", "{n} blunder", "{n} blunders")
ANALYSIS_PLAYER = M(
    "analysis_player",
    "**{name}**: PR {pr}, error rate {rate} mEMG over {decisions}{rating}.",
)
ANALYSIS_CHECKER = M("analysis_checker", "  Checker play: {errors}")
ANALYSIS_CUBE = M("analysis_cube", "  Cube: {errors}")
ANALYSIS_ERRORS = M(
    "analysis_error_figures", "{decisions}, {errors} ({blunders}), {rate} mEMG a decision."
)
ANALYSIS_LUCK = M("analysis_luck", "  Luck {rate} mEMG a move ({total} EMG in all){adjusted}.")
ANALYSIS_LUCK_POINTS = M("analysis_luck_points", "luck-adjusted result {figure} points")
ANALYSIS_LUCK_CHANCE = M("analysis_luck_chance", "luck-adjusted match-winning chance {chance}")
ANALYSIS_PAST_SCALE = M("analysis_past_scale", " (gnubg's {figure}% from even, past the scale)")
ANALYSIS_NO_COSTLY = M("analysis_no_costly", "  No costly decisions.")
ANALYSIS_WORST = M("analysis_worst", "  Worst decisions:")
ANALYSIS_MISTAKE = M(
    "analysis_mistake", "  - {label}{dice}: {played}; better {best} (costs {cost}{mark}){review}"
)
ANALYSIS_PR = M("analysis_pr", "PR {pr} over {matches} ({decisions}).")
ANALYSED_MATCHES = P("analysis_analysed_matches", "{n} analysed match", "{n} analysed matches")

# -- !review: a page's title, its list of plays and the list of errors ---------------------------
REVIEW_TITLE = M("review_title", "Match #{id}, {first} vs {second} ({kind})")
REVIEW_MONEY = M("review_money", "money game")
REVIEW_LENGTH = P("review_length", "{n}-point", "{n}-point")
REVIEW_EVALUATION = {
    True: M("review_cubeful", "Cubeful {plies}-ply"),
    False: M("review_cubeless", "Cubeless {plies}-ply"),
}
REVIEW_PLAYED_MARK = M("review_played_mark", " ← played")
REVIEW_RANK_NOT_KEPT = M("review_rank_not_kept", " (its rank among all gnubg's plays was not kept)")
REVIEW_BEST_OF_LINE = M("review_best_of_line", " (best {best})")
REVIEW_CLEAN = M("review_clean", "A clean match.")
REVIEW_MARKED = P(
    "review_marked",
    "**{title}**: the {n} decision GNU Backgammon marked{where}",
    "**{title}**: the {n} decisions GNU Backgammon marked{where}",
)
REVIEW_NONE_MARKED = M(
    "review_none_marked", "**{title}**: no decision GNU Backgammon marked{where}"
)
REVIEW_PAGE = M("review_page", " · page {number}/{pages}")
REVIEW_FIGURES = M(
    "review_figures",
    "{name}: {pr}, checker {checker_errors} ({checker_blunders}), cube {cube_errors} "
    "({cube_blunders})",
)
# gnubg's marks in the review's words (bot.gnubg.decisions.CLASSES).
ERROR_CLASSES = {
    "doubtful": M("review_class_doubtful", "doubtful"),
    "error": M("review_class_error", "error"),
    "blunder": M("review_class_blunder", "blunder"),
}

# -- durations (bot/service/records/durations.py): called with n = 1 or 2 (the form) and the
# number as shown ("1.5")
UNITS = {
    "second": P("duration_second", "{count} second", "{count} seconds"),
    "minute": P("duration_minute", "{count} minute", "{count} minutes"),
    "hour": P("duration_hour", "{count} hour", "{count} hours"),
    "day": P("duration_day", "{count} day", "{count} days"),
}
# A unit's short form (a countdown, a clock's bank): ``4 min``, ``15 s``, ``1 h 05 min``.
SHORT_UNITS = {
    "second": M("duration_short_seconds", "{count} s"),
    "minute": M("duration_short_minutes", "{count} min"),
    "hour": M("duration_short_hours", "{count} h"),
}
HOURS_MINUTES = M("duration_short_hours_minutes", "{hours} h {minutes} min")

# -- how a match that is no longer played ended, a clock's terms and its running out -------------
ENDED_ABORTED = {
    "aborted": M("ended_aborted", "The match between {first} and {second} was aborted (unrated)."),
    "voided": M(
        "ended_voided",
        "The match between {first} and {second} was voided by a moderator (unrated).",
    ),
    "unreadable": M(
        "ended_unreadable",
        "The match between {first} and {second} was void (its record was damaged) (unrated).",
    ),
}
ENDED_CLAIMED = M("ended_claimed", "{winner} won the match by claim (the opponent timed out).")
ENDED_MONEY = M("ended_money", "{winner} won the money game: {won}.")
ENDED_WON = M("ended_won", "{winner} won the match.")
ENDED_OVER = M("ended_over", "The match is over.")
CLOCK_TERMS = M("clock_terms", " on the clock ({bank} per point, {delay} s delay per move)")
OUT_OF_TIME = M(
    "clock_out_of_time", "{loser} ran out of time on the clock: {winner} wins the match{rated}."
)
CLOCK = M("clock_banks", "Clock: {banks}.")
CLOCK_DELAY = M("clock_delay", "Clock: {banks} ({name}'s runs after {seconds} s of delay).")
CLOCK_RUNNING = M("clock_running", "Clock: {banks} ({name}'s is running).")

# -- too many commands (bot/service/commands/limits.py) -------------------------------------------
SLOW_DOWN = M(
    "limits_slow_down", "Slow down: at most {count} commands in {window}. Try again in {wait}."
)
