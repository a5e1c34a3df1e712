"""Why a pasted position (an XGID, a gnubg ID) can't be read or is not a state in play
(:mod:`bot.rules.pasted`, :mod:`bot.rules.xgid`): values the rules raise, worded by
``!show``, ``!eval`` and the puzzles in the command's language. Lower-case fragments: the
service makes them sentences."""

from __future__ import annotations

from bot.i18n.core import Message as M

# -- reading the text ----------------------------------------------------------------------------
NO_POSITION = M("pasted_no_position", "there is no position after the command")
UNREADABLE = M("pasted_unreadable", "that is not a position the bot can read")
NOT_IN_PLAY = M("pasted_not_in_play", "not a position in play: {why}")
NOT_A_POSITION_ID = M(
    "pasted_not_a_position_id", "{text} is not a Position ID (14 characters from gnubg)"
)
NOT_A_MATCH_ID = M("pasted_not_a_match_id", "{text} is not a Match ID (12 characters from gnubg)")
MATCH_ID_OVER = M(
    "pasted_match_id_over",
    "that Match ID is of a game that is not in play (over, or not started)",
)
MATCH_ID_RESIGNED = M(
    "pasted_match_id_resigned",
    "that Match ID has a resignation offered, which the bot can't show: paste the position "
    "before it",
)
MATCH_ID_TURN = M(
    "pasted_match_id_turn",
    "that Match ID's turn belongs to neither the player on roll nor a taker",
)
MATCH_ID_ONE_DIE = M("pasted_match_id_one_die", "that Match ID has only one die rolled")
TOO_MANY_CHECKERS = M(
    "pasted_too_many_checkers", "{name} has {count} checkers: a side has at most {most}"
)
SHARED_POINT = M("pasted_shared_point", "both players have checkers on point {point}")

# -- an XGID's fields ----------------------------------------------------------------------------
XGID_FIELDS = M(
    "pasted_xgid_fields", "an XGID has {fields} fields separated by colons, this has {count}"
)
XGID_CHECKERS = M(
    "pasted_xgid_checkers",
    "an XGID starts with 26 characters: A-P for X's checkers, a-p for O's, - for none",
)
XGID_BARS = M(
    "pasted_xgid_bars",
    "an XGID's first character is O's bar (a-p or -) and its last X's bar (A-P or -)",
)
XGID_DICE = M(
    "pasted_xgid_dice",
    "an XGID's fifth field is the dice: 00, two dice such as 31, or D; not {field}",
)
XGID_NUMBER = M("pasted_xgid_number", "field {index} of an XGID is a whole number, not {field}")
XGID_TURN = M(
    "pasted_xgid_turn", "not an XGID: the cube position is -1, 0 or 1 and the turn -1 or 1"
)
XGID_NEGATIVE = M(
    "pasted_xgid_negative", "not an XGID: the cube, scores, rules and lengths are not negative"
)
XGID_ANSWER = {
    "B": M(
        "pasted_xgid_beaver",
        "this XGID is waiting on an answer to a beaver, which the bot can't show: paste the "
        "position before it (dice field D) or after it",
    ),
    "R": M(
        "pasted_xgid_raccoon",
        "this XGID is waiting on an answer to a raccoon, which the bot can't show: paste the "
        "position before it (dice field D) or after it",
    ),
}
XGID_MATCH_RULES = M(
    "pasted_xgid_match_rules",
    "in match play an XGID's eighth field is 1 (the Crawford game) or 0",
)
XGID_MONEY_RULES = M(
    "pasted_xgid_money_rules",
    "in a money game an XGID's eighth field is 0-3 (1 Jacoby, 2 beavers)",
)
XGID_CUBE = M("pasted_xgid_cube", "an XGID's cube is at most 15 (a cube of {most})")

# -- the state around the board (why it is not in play) ------------------------------------------
NO_CHECKERS_LEFT = M("pasted_no_checkers_left", "{name} has no checkers left: that game is over")
DICE_RANGE = M("pasted_dice_range", "the dice are two numbers from 1 to 6, not {dice}")
CUBE_VALUES = M("pasted_cube_values", "the cube is 1, 2, 4, 8... up to {most}, not {cube}")
CUBE_LIMIT = M("pasted_cube_limit", "the largest cube is a power of 2, not {most}")
CUBE_CENTRED = M("pasted_cube_centred", "a cube of 1 is centred: nobody owns it before a double")
SCORES = M("pasted_scores", "the length and scores are whole numbers from 0")
ALREADY_WON = M("pasted_already_won", "a score of {score} has already won a {length}-point match")
MONEY_ONLY = M(
    "pasted_money_only", "the Jacoby rule and beavers are for money games, not match play"
)
NO_CRAWFORD_ONE_POINT = M("pasted_no_crawford_one_point", "a 1-point match has no Crawford game")
CRAWFORD_SCORE = M(
    "pasted_crawford_score",
    "the Crawford game is played when one player, not both, is 1 point from winning",
)
NO_CUBE_CRAWFORD = M("pasted_no_cube_crawford", "there is no cube in the Crawford game")
DOUBLE_WITH_DICE = M(
    "pasted_double_with_dice", "a double is offered before rolling, not with the dice rolled"
)
DOUBLER_NOT_OWNER = M("pasted_doubler_not_owner", "{doubler} can't double: {other} owns the cube")
CUBE_PAST_LIMIT = M("pasted_cube_past_limit", "the cube can't be doubled past {most}")
