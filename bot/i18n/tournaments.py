"""The tournaments (:mod:`bot.service.tournaments`): what an organiser types to create one
(``terms``), and what a tournament says as it runs. Command words (`knockout`, `clock 2m`)
stay English, as typed."""

from __future__ import annotations

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
