"""What the service says around play: reading a command, the events of a game, whose turn it is
and what they may do, the cube's questions and the end of a match."""

from __future__ import annotations

from bot.i18n.core import Message as M
from bot.i18n.core import Plural as P

# -- reading a typed command ----------------------------------------------------------------------
TYPE_HELP = M("type_help", "Type `{prefix}help` for the commands.")
ARGUMENT_MISSING = M("argument_missing", "{missing} e.g. `{prefix}{example}`.")
WHO_DO_YOU_CHALLENGE = M("who_do_you_challenge", "Who do you challenge?")
BOTS_DONT_PLAY = M("bots_dont_play", "Bots don't play here: challenge a person.")
UNKNOWN_USER = M(
    "unknown_user", "I don't know {word}: mention a user, e.g. `{prefix}{command} @bob`."
)
UNKNOWN_COMMAND = M(
    "unknown_command",
    "Unknown command {quoted}. Did you mean `{prefix}{meant}`? `{prefix}help` lists them all.",
)
MOVE_REFUSED = M("move_refused", "{reason} `/move` lists your legal plays.")
SAY_WHICH_PLAY = M("say_which_play", "Say which play: {form}.")
PLAY_FORM = M("play_form", "`{prefix}{command} <from>/<to> …` (`/{command}` lists the plays)")
NOT_A_RESIGNATION = M(
    "not_a_resignation",
    "{quoted} is not a resignation: say `single`, `gammon` or `backgammon`, e.g. "
    "`{prefix}resign gammon`.",
)
NOTHING_TO_ACCEPT = M("nothing_to_accept", "There is nothing to accept: no resignation is offered.")
ONLY_PLAYERS = M(
    "only_players",
    "Only {first} and {second} play at this table; you can watch, or start your own match in "
    "another channel.",
)
NOT_YOUR_TURN_DOING = {
    doing: M(
        f"not_your_turn_{doing}_waiting",
        f"It's not your turn to {doing}: waiting for {{other}} {{waiting}}.",
    )
    for doing in ("roll", "move", "double", "take", "drop", "beaver", "resign", "reject")
}
WAITING = {
    "roll": M("waiting_roll", "to roll or double"),
    "move": M("waiting_move", "to move"),
    "doubled": M("waiting_doubled", "to answer the double"),
    "resigned": M("waiting_resigned", "to answer the resignation"),
}
ABORT_LAPSES = M("abort_lapses", "{asker}'s request to abort lapses: they played on.")
ABORT_REFUSED_BY_PLAY = M(
    "abort_refused_by_play",
    "{actor} plays on instead of agreeing to abort: {asker}'s request lapses.",
)

# -- the match and its score ----------------------------------------------------------------------
MONEY_GAME = M("money_game", "a money game")
POINT_MATCH = P("point_match", "a {n}-point match", "a {n}-point match")
CHALLENGES = M(
    "challenges",
    "{challenger} challenges {opponent} to {terms}. {opponent}: `{prefix}accept` or "
    "`{prefix}decline` (expires in {expires}).",
)
ACCEPTS = M(
    "accepts",
    "{second} accepts: {first} vs {second}, {terms}. Dice commitment (SHA-256 of the secret "
    "seed, revealed at the end): `{commitment}`",
)
SCORE_MONEY = M("score_money", "{first} {a}, {second} {b} (money game)")
SCORE_MATCH = M("score_match", "{first} {a}, {second} {b} (match to {length})")
SCORE_CRAWFORD = M("score_crawford", ", Crawford game")
SCORE_POST_CRAWFORD = M("score_post_crawford", ", post-Crawford")

PIP_COUNTS = M("pip_counts", "Pips: {first} {a}, {second} {b} ({lead}).")
EVEN = M("even", "even")
LEADS_BY = M("leads_by", "{name} leads by {pips}")
SCORE_LINE = M("score_line", "{score}. Game {game}; cube {cube}, {owner}.")
CUBE_CENTRED = M("cube_centred", "centred")
CUBE_OWNED = M("cube_owned", "{name}'s")

# -- what happened --------------------------------------------------------------------------------
GAME_AT = M("game_at", "Game {game} at {a}-{b}{crawford}.")
CRAWFORD_NO_DOUBLING = M("crawford_no_doubling", " (Crawford game: no doubling)")
OPENING_ROLLS = M("opening_rolls", "{first} rolls {a}, {second} rolls {b}")
OPENING_TIE = M("opening_tie", "Opening roll: {rolls}; a tie, rolling again{cube}.")
CUBE_TURNS = M("cube_turns", ": the cube turns to {cube}")
OPENING_WINNER = M(
    "opening_winner", "Opening roll: {rolls}. {winner} moves first with {high}-{low}."
)
ROLLS = M("rolls", "{who} rolls {dice}.")
CANT_MOVE = M("cant_move", "{who} can't move with {dice}.")
PLAYS = M("plays", "{who} plays {dice}: {play}{forced}.")
FORCED = M("forced", " (forced)")
DOUBLES = M("doubles", "{who} doubles to {cube}.")
TAKES = M("takes", "{who} takes: the cube is at {cube}.")
BEAVERS = M("beavers", "{who} beavers: the cube is at {cube}, and {who} owns it.")
DROPS = M("drops", "{who} drops.")
OFFERS_TO_RESIGN = M("offers_to_resign", "{who} offers to resign {level} ({points}).")
ACCEPTS_RESIGNATION = M("accepts_resignation", "{who} accepts the resignation.")
REJECTS_RESIGNATION = M("rejects_resignation", "{who} rejects the resignation: play on.")
WINS = {
    "single": M("wins_single", "{winner} wins: {points}{jacoby}.{score}"),
    "gammon": M("wins_gammon", "{winner} wins a gammon: {points}{jacoby}.{score}"),
    "backgammon": M("wins_backgammon", "{winner} wins a backgammon: {points}{jacoby}.{score}"),
}
JACOBY_NOTE = M("jacoby_note", " (Jacoby rule: gammons count single with the cube centred)")
SCORE_AFTER = M("score_after", " Score {first} {a}, {second} {b}.")

# -- who must do what now -------------------------------------------------------------------------
WINS_MONEY_GAME = M("wins_money_game", "{winner} wins the money game: {won}.")
WINS_MATCH = M("wins_match", "**{winner} wins {kind} {a}-{b}.**")
EXPORT_HINT = M("export_hint", "{result} `{prefix}export` shows the record and the dice seed.")
THINKING = M("thinking", "{who} is thinking…")
ROLL_OR_DOUBLE = M("roll_or_double", "{who}: `{prefix}roll` or `{prefix}double`.")
TO_MOVE = M("to_move", "{who} to move {dice}: {form}.")
TAKE_DROP_OR_BEAVER = M(
    "take_drop_or_beaver",
    "{who}: `{prefix}take` (the cube goes to {cube}), `{prefix}drop` or `{prefix}beaver` (take "
    "and redouble at once: the cube goes to {beaver}, yours).",
)
TAKE_OR_DROP = M(
    "take_or_drop", "{who}: `{prefix}take` or `{prefix}drop` (the cube would be {cube})."
)
ACCEPT_OR_REJECT = M(
    "accept_or_reject", "{who}: `{prefix}accept` or `{prefix}reject` the resignation."
)
