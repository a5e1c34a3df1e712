"""The rules' words for the player: why a roll, a move, a double or an answer is refused, and why
a typed play can't be read or is not legal (:mod:`bot.rules.match`, :mod:`bot.rules.diagnose`,
:mod:`bot.rules.notation`). Lower-case fragments: the service makes them sentences."""

from __future__ import annotations

from bot.i18n.core import Message as M
from bot.i18n.core import Plural as P

# -- words ---------------------------------------------------------------------------------------
OR = M("or", "{a} or {b}")
AND = M("and", "{a} and {b}")
LEVEL_SINGLE = M("level_single", "a single game")
LEVEL_GAMMON = M("level_gammon", "a gammon")
LEVEL_BACKGAMMON = M("level_backgammon", "a backgammon")
CHECKERS = P("checkers", "a checker", "{n} checkers")
DICE = P("dice", "{n} die", "{n} dice")
MOVES = P("moves", "{n} move", "{n} moves")
PIPS = P("pips", "{n} pip", "{n} pips")
POINTS = P("points", "{n} point", "{n} points")
TYPED = M("typed", "{reason} (you typed {quoted})")
# The text board's lines under it (the console's, and a board with no image).
BOARD_SIDE = M("board_side", "{mark}: bar {bar}, off {off}, pips {pips}")
BOARD_ON_ROLL = M("board_on_roll", "{side} (on roll)")

# -- whose turn, and the cube ---------------------------------------------------------------------
MATCH_OVER = M("match_over", "the match is over")
DOUBLED_ANSWER_FIRST = M(
    "doubled_answer_first", "you have been doubled to {cube}: take or drop first"
)
WAIT_DOUBLE_ANSWER = M(
    "wait_double_answer", "it is not your turn: your opponent must take or drop your double"
)
RESIGNATION_ANSWER_FIRST = M(
    "resignation_answer_first", "your opponent offers to resign {level}: accept or reject first"
)
WAIT_RESIGNATION_ANSWER = M(
    "wait_resignation_answer",
    "it is not your turn: your opponent must accept or reject your resignation",
)
NOT_YOUR_TURN_TO = {
    "roll": M("not_your_turn_roll", "it is not your turn to roll"),
    "move": M("not_your_turn_move", "it is not your turn to move"),
    "double": M("not_your_turn_double", "it is not your turn to double"),
    "resign": M("not_your_turn_resign", "it is not your turn to resign"),
}
NO_DOUBLING_ONE_POINT = M("no_doubling_one_point", "there is no doubling in a 1-point match")
NO_DOUBLING_CRAWFORD = M("no_doubling_crawford", "there is no doubling in the Crawford game")
CUBE_OPPONENTS = M("cube_opponents", "the cube is your opponent's: only they can double now")
CUBE_DEAD = M(
    "cube_dead",
    "the cube is dead: winning this game already wins you the match, so a double can't gain "
    "you anything",
)
CUBE_AT_LIMIT = M("cube_at_limit", "the cube is already at {cube}, its limit")
DOUBLE_BEFORE_ROLL = M("double_before_roll", "you have already rolled: double before you roll")
NO_DOUBLE_TO = {
    "take": M("no_double_to_take", "there is no double to take"),
    "drop": M("no_double_to_drop", "there is no double to drop"),
    "beaver": M("no_double_to_beaver", "there is no double to beaver"),
}
OWN_DOUBLE = {
    "take": M("own_double_take", "you can't take your own double: your opponent answers it"),
    "drop": M("own_double_drop", "you can't drop your own double: your opponent answers it"),
    "beaver": M("own_double_beaver", "you can't beaver your own double: your opponent answers it"),
}
NO_RESIGNATION_TO = {
    "accept": M("no_resignation_to_accept", "there is no resignation to accept"),
    "reject": M("no_resignation_to_reject", "there is no resignation to reject"),
}
OWN_RESIGNATION = {
    "accept": M(
        "own_resignation_accept",
        "you can't accept your own resignation: your opponent answers it",
    ),
    "reject": M(
        "own_resignation_reject",
        "you can't reject your own resignation: your opponent answers it",
    ),
}
ALREADY_ROLLED = M("already_rolled", "you have already rolled {dice}: now move")
ROLL_BEFORE_MOVE = M("roll_before_move", "roll the dice before you move")
BEAVERS_NOT_HERE = M("beavers_not_here", "beavers are not allowed in this game")
BEAVERS_MONEY_ONLY = M("beavers_money_only", "beavers are only for money games")
CUBE_ABOVE = M("cube_above", "the cube can't go above {most}: take or drop")
ALREADY_RESIGNED = M("already_resigned", "you have already offered to resign: wait for the answer")
RESIGN_WHAT = M("resign_what", "resign a single game, a gammon or a backgammon")
RESIGN_LEVEL = M("resign_level", "resign a single game (1), a gammon (2) or a backgammon (3)")

# -- a play that can't be read --------------------------------------------------------------------
NOT_A_MOVE = M("not_a_move", "that is not a move: {reason}")
PLAY_EXAMPLE = M("play_example", "use from/to like 13/7, bar/22 or 6/off")
MISSING_POINT = M("missing_point", "{token} is missing a point; {example}")
NOT_A_POINT = M("not_a_point", "{word} in {token} is not a point; {example}")
NO_POINT = M("no_point", "there is no point {shown} (1-24)")
THAT_HIGH = M("that_high", "that high")
NOT_FROM_TO = M("not_from_to", "{token} is not from/to; {example}")
NEEDS_FROM_TO = M("needs_from_to", "{token} needs from/to; {example}")
COUNT_LIKE = M("count_like", "write a count like 8/2(2)")
COUNT_RANGE = M("count_range", "a count must be 1 to 4")
NOT_TO_BAR = M("not_to_bar", "a checker can't move to the bar")
OFF_LAST = M("off_last", "'off' can only come last")

# -- a play that is not legal ---------------------------------------------------------------------
NOTHING_TO_PLAY = M(
    "nothing_to_play", "you have no legal move with {dice}: there is nothing to play"
)
CANT_PASS = M("cant_pass", "you have a legal play with {dice}: you can't pass")
AMBIGUOUS = M("ambiguous", "that fits more than one play: {choices}; type the one you mean")
BACKWARDS = M("backwards", "{move} goes backwards: checkers move from higher points to lower ones")
TOO_MANY_MOVES = M(
    "too_many_moves",
    "too many moves: your {dice} plays {dice_count}, one move each, and that is {moves}{hint}",
)
REPEATS_ONLY = M("repeats_only", "; the ({count}) in {move} repeats only that move")
CLOSED = M("closed", "{point} is closed: your opponent has {count} checkers there")
ENTER_FIRST = P(
    "enter_first",
    "you have a checker on the bar: enter it first",
    "you have {n} checkers on the bar: enter them first",
)
TOO_FEW_ARRIVE = P(
    "too_few_arrive",
    "you move {checkers} from {point}, but you have {there} there and only {n} more arrives",
    "you move {checkers} from {point}, but you have {there} there and only {n} more arrive",
)
NONE = M("none", "none")
NO_CHECKER_ON_BAR = M("no_checker_on_bar", "you have no checker on the bar")
NO_CHECKER_ON = M("no_checker_on", "you have no checker on {point}")
ONLY_ON_BAR = M("only_on_bar", "you have only {checkers} on the bar")
ONLY_ON = M("only_on", "you have only {checkers} on {point}")
BEAR_OFF_OUTSIDE = M(
    "bear_off_outside", "you can't bear off while a checker is outside your home board"
)
CANT_MAKE_DISTANCE = M("cant_make_distance", "{hop} is {pips}, which your {dice} can't make")
TOO_MANY_DICE = M(
    "too_many_dice",
    "too many moves: that takes {dice_count} ({hop} takes {most} of them), and your {dice} has "
    "{available}",
)
BLOCKED = P(
    "blocked", "{hop} is blocked: {listed} is closed", "{hop} is blocked: {listed} are closed"
)
OVERSHOOT = M(
    "overshoot",
    "{source}/off needs a {source}: a bigger number bears off only from your highest point, "
    "and you have a checker on {higher}",
)
MUST_PLAY_DOUBLES = {
    1: M("must_play_one", "you must play one {die}s"),
    2: M("must_play_two", "you must play two {die}s"),
    3: M("must_play_three", "you must play three {die}s"),
    4: M("must_play_four", "you must play all four {die}s"),
}
BOTH_DICE = M("both_dice", "you must play both dice")
MUST_PLAY_HIGH = M("must_play_high", "you must play the {high} when only one die can be played")
ONLY_ONE_DIE = M("only_one_die", "only one die can be played with {dice}")
NOT_LEGAL = M("not_legal", "that is not a legal play with {dice}")
CANT_MAKE_ALL = M("cant_make_all", "your {dice} can't make all of {typed}")
ONE_OF_EACH = M("one_of_each", "your {dice} plays one {high} and one {low}")
ONLY_ONCE = M("only_once", "{roll}, so {hop} can be played only once")
BOTH_NEED = M("both_need", "{roll}: {first} and {second} both need the {die}")

# -- a puzzle's cube answer -----------------------------------------------------------------------
PUZZLE_ANSWER_WORDS = M("puzzle_answer_words", "Answer {words}, not {quoted}")
