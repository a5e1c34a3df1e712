"""The tournaments (:mod:`bot.service.tournaments`): what an organiser types to create one
(``terms``), and what a tournament says as it runs. Command words (`knockout`, `clock 2m`)
stay English, as typed."""

from __future__ import annotations

from bot.i18n.core import Message as M

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
