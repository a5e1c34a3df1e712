"""The tournaments (:mod:`bot.service.tournaments`): what an organiser types to create one
(``terms``), and what a tournament says as it runs. Command words (`knockout`, `clock 2m`)
stay English, as typed."""

from __future__ import annotations

from bot.i18n.core import Language
from bot.i18n.core import Message as M
from bot.i18n.core import Plural as P

# -- creating one ---------------------------------------------------------------------------------
NOT_A_NUMBER = M(
    "tournament_not_a_number", "{quoted} is not {what} ({low}-{high}), e.g. {example}."
)
A_NUMBER_OF_ROUNDS = M("tournament_a_number_of_rounds", "a number of rounds")
A_MATCH_LENGTH = M("tournament_a_match_length", "a match length")
A_SIZE_LIMIT = M("tournament_a_size_limit", "a size limit")
SAY_FORMAT = M(
    "tournament_say_format",
    "Say the format: `knockout`, `swiss` or `roundrobin`, after the name, e.g. {example}.",
)
NAME_FIRST = M("tournament_name_first", "Give the tournament a name first, e.g. {example}.")
NAME_RULE = M(
    "tournament_name_rule",
    "A tournament's name is up to {most} letters, digits, spaces, dots, apostrophes and dashes: "
    "{quoted} is not.",
)
SAY_ROUNDS = M(
    "tournament_say_rounds",
    "Say how many Swiss rounds, e.g. `{prefix}tournament create Autumn swiss 4 rounds 1`.",
)
SAY_LENGTH = M(
    "tournament_say_length",
    "Say the match length (1-{most} points) after the format, e.g. {example}.",
)
SAY_HOW_MUCH = M("tournament_say_how_much", "Say how much after `{word}`, e.g. `{word} {sample}`.")
CLOCK_EXAMPLE = M("tournament_clock_example", "{error}, e.g. `clock 2m`.")
NOT_DAYS = M("tournament_not_days", "{quoted} is not a number of days per match (0.5-{most}).")
NOT_A_TERM = M(
    "tournament_not_a_term",
    "{quoted} is not a tournament term: after the length you may add `clock 2m` or `days 3`, "
    "`unrated`, `limit 16` and `start 2h`.",
)
CLOCK_OR_DAYS = M(
    "tournament_clock_or_days",
    "Choose `clock` (live play) or `days` (correspondence), not both.",
)
NOT_A_TIME = M(
    "tournament_not_a_time",
    "{quoted} is not a time from now: say e.g. `start 30m`, `2h` or `1d`.",
)
START_RANGE = M(
    "tournament_start_range", "A tournament starts between 1 minute and 30 days from now."
)

# -- running one ----------------------------------------------------------------------------------
STARTED_ALREADY = M("tournament_started_already", "{name} has started already.")
TOO_FEW = M("tournament_too_few", "{name} needs at least 2 entrants to start; it has {count}.")
ORGANISER_DECIDED = M(
    "tournament_organiser_decided", "The organiser decided this match for the tournament"
)
VOIDED = M("tournament_voided", "{why}: it ends here (unrated).")
CANT_PAIR = M("tournament_cant_pair", "{name}: round {round} can't be paired ({error}).")
UNDECIDED = M(
    "tournament_undecided",
    "{name} {table}: the match was ended without a winner. The organiser decides it: "
    "`{prefix}tournament result {table} @winner reason`.",
)
COULD_NOT_START = M("tournament_could_not_start", "{name} could not start: {why} It is cancelled.")
WAITING_CHANNEL = M(
    "tournament_waiting_channel",
    "{name} {labels}: with no thread of its own, each match is played in this channel when the "
    "one before it is over (its deadline counts from then).",
)
IN_THREAD = M("tournament_in_thread", "{name} {table}: {first} vs {second} in {thread}")

# -- its room: finding one, joining, leaving, the organiser's commands ----------------------------
NO_SUCH = M("tournament_no_such", "There is no tournament {quoted} on this server.")
NONE_RUN = M(
    "tournament_none_run",
    "No tournament is being run on this server. Organisers start one with "
    "`{prefix}tournament create Spring knockout 3`.",
)
SEVERAL = M(
    "tournament_several",
    "Several tournaments are on ({names}): say which, e.g. `{prefix}tournament {first} join`.",
)
STARTS_SEEDED = M(
    "tournament_starts_seeded", "**{name}** starts: {count} players, seeded by rating:"
)
NO_REASON = M("tournament_no_reason", "no reason given")
FORFEIT = M("tournament_forfeit", "past the deadline, forfeit")
FORFEIT_REMOVED = M("tournament_forfeit_removed", "forfeit, {who} removed")
FORFEIT_BOTH = M("tournament_forfeit_both", "past the deadline, forfeit both ways")
PAST_DEADLINE = M("tournament_past_deadline", "The match was not over by its deadline")
PLAYERS = M("tournament_players", "{first} vs {second}")
REMOVE_AGAIN = M("tournament_remove_again", "{name} has just started: say it again to remove them.")
# A tournament's status (the store's word) as replies say it: "{name} is {status}".
STATUS = {
    "signup": M("tournament_status_signup", "signing up"),
    "running": M("tournament_status_running", "running"),
    "paused": M("tournament_status_paused", "paused"),
    "finished": M("tournament_status_finished", "finished"),
    "cancelled": M("tournament_status_cancelled", "cancelled"),
}
FINAL = M("tournament_final", "{name} is {status}: its results are final.")
NAME_TAKEN = M(
    "tournament_name_taken",
    "A tournament called {quoted} is already on here: give the new one another name, or wait "
    "until that one is over.",
)
NO_CALLED = M(
    "tournament_no_called",
    "There is no tournament called {quoted} on this server; `{prefix}tournament` shows the one "
    "on now.",
)
JOIN_CLOSED = M("tournament_join_closed", "{name} has started: joining is closed.")
LEAVE_CLOSED = M(
    "tournament_leave_closed",
    "{name} has started: ask the organiser to remove you (`{prefix}tournament remove @you`).",
)
IN_ALREADY = M("tournament_in_already", "You are in {name} already ({count} entrants).")
FULL = M("tournament_full", "{name} is full ({most} players).")
ENTRANTS = P("tournament_entrants", "{n} entrant", "{n} entrants")
JOINS = M("tournament_joins", "{who} joins {name}: {count} ({shown}).")
NOT_JOINED = M("tournament_not_joined", "You have not joined {name}.")
LEAVES = M("tournament_leaves", "{who} leaves {name}.")
NOT_RUNNING = M("tournament_not_running", "{name} is not running, so it can't be paused.")
PAUSES = M(
    "tournament_pauses",
    "{who} pauses {name}: no new round and no deadline until `{prefix}tournament resume`. "
    "Matches being played may go on.",
)
NOT_PAUSED = M("tournament_not_paused", "{name} is not paused.")
RESUMES = M(
    "tournament_resumes",
    "{who} resumes {name}: the matches' deadlines move on by the {time} it was paused.",
)
OVER_ALREADY = M("tournament_over_already", "{name} is over already.")
CANCELS = M(
    "tournament_cancels",
    "{who} cancels {name} ({reason}). Matches being played go on as ordinary matches.",
)
NOT_ENTRANT = M("tournament_not_entrant", "{quoted} is not an entrant of {name}.")
WHOM = M("tournament_whom", "Whom? e.g. `{prefix}tournament remove @bob no-show`.")
NAME_ENTRANT = M("tournament_name_entrant", "Name the entrant to remove.")
LEFT_ALREADY = M("tournament_left_already", "{who} has left {name} already.")
REMOVES = M("tournament_removes", "{who} removes {entrant} from {name}.")
REMOVES_WHY = M("tournament_removes_why", "{who} removes {entrant} from {name} ({reason}).")
REMOVED_ALREADY = M("tournament_removed_already", "{who} was removed already.")
SAY_WHICH = M("tournament_say_which", "Say which match, who wins and why: {usage}.")
NOT_A_MATCH = M("tournament_not_a_match", "{quoted} is not a match of {name}: {usage}.")
NOT_PLAYING = M("tournament_not_playing", "{who} is not playing match {table}.")
OVER_FINAL = M("tournament_over_final", "{name} is over: its results are final.")
NEXT_PAIRED = M(
    "tournament_next_paired",
    "The next round is paired already: that knockout result can't change now.",
)

# -- a round's lines and the standings (issue 34) -------------------------------------------------
DECIDED = M("tournament_decided", "{name} {line}: {who} ({reason}).")
NOBODY_WINS = M("tournament_nobody_wins", "nobody wins")
SOMEONE_WINS = M("tournament_someone_wins", "{who} wins")
RESULT_LINE = M("tournament_result_line", "{name}: {line}")
PAIRING_BYE = M("tournament_pairing_bye", "{label} {first}: bye")
PAIRING_NOBODY = M("tournament_pairing_nobody", "{line}: nobody wins ({reason})")
PAIRING_WON = M("tournament_pairing_won", "{line}: **{winner}** wins {result}")
PAIRING_PLAYING = M("tournament_pairing_playing", "{line}: playing in {link}")
PAIRING_TO_OPEN = M("tournament_pairing_to_open", "{line}: to be opened")
# How a match was decided, by the reason the store keeps (a key, worded where it is shown).
ENDINGS = {
    "claimed": M("tournament_by_claim", "by claim"),
    "time": M("tournament_on_time", "on time"),
    "forfeit (withdrawn)": M("tournament_by_withdrawal", "by forfeit (the opponent withdrew)"),
}
AT_SCORE = M("tournament_at_score", " at {score}")
STANDING = M(
    "tournament_standing",
    "{rank}. {name}: {points}{byes}, {wins}-{losses}, Buchholz {buchholz}, {difference}{removed}",
)
STANDING_BYES = P(
    "tournament_standing_byes",
    " (with a bye: a win without a game)",
    " (with {n} byes: wins without a game)",
)
STANDING_REMOVED = M("tournament_standing_removed", " (removed)")
MATCH_POINTS = P("tournament_match_points", "{n} match point", "{n} match points")

# -- the sign-up message and a round's opening (issue 34) -----------------------------------------
ORGANISER_ONLY = {
    verb: M(
        f"tournament_organiser_only_{verb}",
        f"Only organisers (Manage Server, or the server's tournament role) can {what}.",
    )
    for verb, what in (
        ("create", "create a tournament"),
        ("start", "start a tournament"),
        ("pause", "pause a tournament"),
        ("resume", "resume a tournament"),
        ("cancel", "cancel a tournament"),
        ("remove", "remove players from a tournament"),
        ("result", "decide results in a tournament"),
    )
}
FORMATS = {
    "knockout": M("tournament_format_knockout", "knockout"),
    "swiss": M("tournament_format_swiss", "Swiss"),
    "roundrobin": M("tournament_format_roundrobin", "round robin"),
}
SWISS_ROUNDS = P("tournament_swiss_rounds", "{kind} of {n} round", "{kind} of {n} rounds")
CLOCK_PER_POINT = M("tournament_clock_per_point", "a clock of {time} per point")
DAYS_PER_MATCH = M("tournament_days_per_match", "{days} per match")
RATED = M("tournament_rated", "rated")
UNRATED = M("tournament_unrated", "unrated")
TERMS = P(
    "tournament_terms",
    "{kind}, {n}-point matches, {time}, {rated}",
    "{kind}, {n}-point matches, {time}, {rated}",
)
STARTS_IN = M("tournament_starts_in", "It starts in {time}")
ORGANISER_STARTS = M("tournament_organiser_starts", "The organiser starts it")
NOBODY_YET = M("tournament_nobody_yet", "nobody yet")
SIGNUP = M(
    "tournament_signup",
    "{lead} **{name}**: {terms}; up to {most} players. Join with the button or "
    "`{prefix}tournament join`. {when}.\nEntrants ({count}): {listed}",
)
OPENS = M("tournament_opens", "{who} opens a tournament.")

# -- `!tournament`'s standings, a round's head, its end and its report (issue 34) ----------------
ROUND_NAMES = {
    1: M("tournament_round_final", "Final"),
    2: M("tournament_round_semi_finals", "Semi-finals"),
    3: M("tournament_round_quarter_finals", "Quarter-finals"),
}
ROUND_N = M("tournament_round_n", "Round {round}")


def knockout_round_name(round_: int, rounds_total: int, language: Language) -> str:
    """A knockout's round: "Final", "Semi-finals", "Quarter-finals", else "Round n"."""
    named = ROUND_NAMES.get(rounds_total - round_ + 1)
    return named(language) if named is not None else ROUND_N(language, round=round_)


OUT_IN_NAMED = {
    1: M("tournament_out_in_final", "out in the final"),
    2: M("tournament_out_in_semi_finals", "out in the semi-finals"),
    3: M("tournament_out_in_quarter_finals", "out in the quarter-finals"),
}
OUT_IN_ROUND = M("tournament_out_in_round", "out in round {round}")
PLACING_REMOVED = M("tournament_placing_removed", "removed")
CHAMPION = M("tournament_champion", "champion")
STILL_IN = M("tournament_still_in", "still in")
STATE_RUNNING = M("tournament_state_running", "round {round} of {total}")
STATE_PAUSED = M("tournament_state_paused", "paused in round {round} of {total}")
SHOWN = M("tournament_shown", "**{name}** ({terms}): {state}")
SEEDS = M("tournament_seeds", "__Seeds__ (the standings come when round 1 is over)")
STANDINGS_HEAD = M("tournament_standings_head", "__Standings{after}__")
AFTER_ROUND = M("tournament_after_round", " after round {round}")
ROUND_HEAD = M("tournament_round_head", "**{name}: {title}** (round {round} of {total})")
OVER_CHAMPION = M("tournament_over_champion", "🏆 **{name}** is over: **{champion}** wins!")
OVER = M("tournament_over", "**{name}** is over.")
REPORT_POINTER = M(
    "tournament_report_pointer",
    "The report, with GNU Backgammon's analysis of every match: `{prefix}tournament report`.",
)
REPORT_STANDS = M("tournament_report_stands", "**{name}** stands ({status}, round {round}).")
WINNER = M("tournament_winner", "Winner: **{name}**")
ANALYSED_OF = P(
    "tournament_analysed_of",
    "GNU Backgammon has analysed {analysed} of its {n} match{more}.",
    "GNU Backgammon has analysed {analysed} of its {n} matches{more}.",
)
MORE_WITH = M("tournament_more_with", " (more with `{prefix}analysis <match>`)")
FIGURES = M(
    "tournament_figures", "PR {pr} over {matches} analysed (best {best}{short}), luck {luck}"
)
TOO_SHORT = M("tournament_too_short", "{count} too short to rate")
NOT_ANALYSED = M("tournament_not_analysed", "not analysed")
REPORT_LINE = M("tournament_report_line", "{rank}. {name}: {placing}; {figures}")

# -- the rules' refusals (TournamentError's reasons, worded where they are said) -----------------
RULE_NEEDS_TWO = M("tournament_rule_needs_two", "A tournament needs at least 2 players.")
RULE_ROUND_ROBIN_MOST = M(
    "tournament_rule_round_robin_most",
    "A round robin has room for at most {most} players ({entered} entered).",
)
RULE_SWISS_ROUNDS = M(
    "tournament_rule_swiss_rounds",
    "A Swiss tournament of {entrants} players plays from 1 to {most} rounds.",
)
RULE_ENTER_ONCE = M("tournament_rule_enter_once", "A player can enter a tournament only once.")
RULE_ROUNDS_FROM_ONE = M("tournament_rule_rounds_from_one", "Rounds are numbered from 1.")
RULE_OVER = M("tournament_rule_over", "The tournament is over.")
RULE_OVER_ALL_MET = M(
    "tournament_rule_over_all_met", "The tournament is over: everyone has met everyone."
)
RULE_OVER_ROUNDS = P(
    "tournament_rule_over_rounds",
    "The tournament is over: it had {n} round.",
    "The tournament is over: it had {n} rounds.",
)
RULE_OVER_FEW = M(
    "tournament_rule_over_few", "The tournament is over: fewer than 2 players are left."
)
RULE_NOT_FINISHED = M("tournament_rule_not_finished", "Round {round} is not finished yet.")
RULE_NO_RESULT = M(
    "tournament_rule_no_result", "Round {round} is not finished yet: no result for {names}."
)
RULE_COMMA = M("tournament_rule_comma", "{a}, {b}")  # a list's items
RULE_AND_MORE = P("tournament_rule_and_more", "{names} and {n} more", "{names} and {n} more")
RULE_STRANGER = M(
    "tournament_rule_stranger",
    "Round {round}, table {table}: a result for a player not in the tournament.",
)
RULE_NOT_THE_BRACKET = M(
    "tournament_rule_not_the_bracket",
    "The result of round {round}, table {table} does not fit the bracket.",
)
RULE_TWO_RESULTS = M(
    "tournament_rule_two_results", "{name} has more than one result in round {round}."
)
