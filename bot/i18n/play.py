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
# The same standing alone, after a colon or a comma (Greek: the nominative, not the object's case).
POINT_MATCH_ALONE = P("point_match_alone", "a {n}-point match", "a {n}-point match")
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

# -- challenges' refusals, the clock, claims, abort and void, finding a match (issue 34) ----------
MONEY_OPTIONS_ONLY = M(
    "challenge_money_options_only",
    "Jacoby, beavers and automatic doubles are for money games: "
    "`{prefix}challenge @user money jacoby beavers`.",
)
NOT_A_MATCH_OPTION = M(
    "challenge_not_an_option",
    "{quoted} is not a match option: after `money` you may add `jacoby`, `beavers` and `auto` "
    "(automatic doubles).",
)
AUTOMATIC_DOUBLES_RANGE = M(
    "challenge_automatic_doubles",
    "Automatic doubles: at most 1 to {most} per game, not {shown}, e.g. "
    "`{prefix}challenge @user money auto 2`.",
)
NOT_A_LENGTH = M(
    "challenge_not_a_length",
    "{quoted} is not a match length: give a number of points (1-{most}) or `money`.",
)
NO_SUCH_LENGTH = M(
    "challenge_no_such_length",
    "A match is 1 to {most} points, not {shown}; for a money game say `money`, e.g. "
    "`{prefix}challenge @user money`.",
)
UNRATED_HINTS = M("challenge_unrated_hints", " with hints (unrated)")
UNRATED_DM = M("challenge_unrated_dm", " (unrated: games in DMs are)")
CLOCK_HOW_MUCH = M("clock_how_much", "Say how much time per point after `clock`, e.g. {example}.")
CLOCK_NOT_A_TIME = M("clock_not_a_time", "{quoted} is not a time per point: say e.g. `2m` or `90s`")
CLOCK_OUT_OF_RANGE = M(
    "clock_out_of_range", "{quoted} per point is out of range: from {least} to {most}"
)
CLOCK_REFUSED = M("clock_refused", "{reason}, e.g. {example}.")
CLOCK_FOR_MATCHES = M(
    "clock_for_matches",
    "A clock is for matches (its bank is a time per point): `{prefix}challenge @bob 5 clock 2m`.",
)
CHALLENGE_WAS_ACCEPTED = M("challenge_was_accepted", "That challenge was accepted. {where}")
CHALLENGE_EXPIRED_AGO = M(
    "challenge_expired_ago",
    "{challenger}'s challenge to {opponent} expired {ago} ago (challenges last {lasting}): "
    "`{prefix}challenge @user` to start again.",
)
CHALLENGE_EXPIRED = M(
    "challenge_expired",
    "{challenger}'s challenge to {opponent} expired unanswered (challenges last {lasting}). "
    "`{prefix}challenge @user` to start again.",
)
NO_CHALLENGE_TO = {
    verb: M(
        f"no_challenge_to_{verb}",
        f"There is no challenge here to {verb}. Start one with `{{prefix}}challenge @user`.",
    )
    for verb in ("accept", "decline", "cancel")
}
FOR_THE_BOT = M(
    "challenge_for_the_bot",
    "{quoted} is for games against the bot: `{prefix}challenge bot 5 expert tutor`. Between "
    "people you may add `hints`, e.g. `{prefix}challenge @bob 5 hints`.",
)
NOT_YOURSELF = M(
    "challenge_not_yourself",
    "You can't challenge yourself: name someone else, e.g. `{prefix}challenge @friend`.",
)
CHALLENGE_RATE = M(
    "challenge_rate",
    "You can send at most {count} challenges in {window} on this server: try again in {wait}.",
)
TABLE_BUSY = M(
    "table_busy",
    "A match is already being played here: one match per channel. Use another channel or thread.",
)
CHALLENGE_OPEN = M(
    "challenge_open",
    "There is already an open challenge here: it must be answered, cancelled "
    "(`{prefix}cancel`) or expire first.",
)
CHALLENGE_NOT_YOURS = M(
    "challenge_not_yours", "This challenge is for {name}; only they can accept it."
)
ONLY_CHALLENGED_DECLINES = M(
    "only_challenged_declines",
    "Only the challenged player can decline; the challenger can `{prefix}cancel`.",
)
ONLY_CHALLENGER_CANCELS = M(
    "only_challenger_cancels",
    "Only the challenger can cancel a challenge; the challenged player can `{prefix}decline`.",
)
DECLINES = M("challenge_declines", "{who} declines the challenge.")
WITHDRAWS = M("challenge_withdraws", "{who} withdraws the challenge.")
ACCEPTS_CHALLENGE = M("accepts_challenge", "{second} accepts {first}'s challenge.")
PLAYED_IN_THREAD = M("played_in_thread", "{lead} The match is played in its thread: {link}")
RESULT_IN_THREAD = M("result_in_thread", "{result} ({link})")
BEATS = P(
    "thread_beats",
    "{winner} beats {loser} {score} in a {n}-point match.",
    "{winner} beats {loser} {score} in a {n}-point match.",
)
NOT_YOUR_DECISION = M("not_your_decision", "Not your decision: waiting for {name}.")
OUT_OF_DATE = M("out_of_date", "This button is out of date: the game has moved on.")
OUT_OF_DATE_CHALLENGE = M(
    "out_of_date_challenge", "This button is out of date: that challenge is no longer open."
)

ABORT_ASKED_ALREADY = M(
    "abort_asked_already",
    "You asked to abort already; waiting for {other} to type `{prefix}abort` too.",
)
ABORT_ASKS = M(
    "abort_asks", "{who} asks to abort the match (unrated). {other}: `{prefix}abort` to agree."
)
ABORTED = M("aborted", "Match aborted by agreement: {first} vs {second}, unrated.")
VOID_MODERATORS_ONLY = M(
    "void_moderators_only",
    "Only moderators (Manage Messages in this channel) can void a match; the players can end "
    "it together with `{prefix}abort`.",
)
VOIDED_DAMAGED = M(
    "voided_damaged",
    "{who} voided the damaged match between {first} and {second}: unrated, and the table is free.",
)
VOIDED = M(
    "voided",
    "{who} voided the match between {first} and {second}: unrated, and the table is free.",
)
CLAIM_ENGINE_FAILED = M(
    "claim_engine_failed",
    "GNU Backgammon couldn't judge the position to rate the claim ({error}): try "
    "`{prefix}claim` again in a moment.",
)
CLAIM_CHANGED = M(
    "claim_changed",
    "The game changed while GNU Backgammon judged the position: nothing was done. "
    "`{prefix}claim` again if you still may.",
)
CLAIM_OWN_TURN = M(
    "claim_own_turn", "It's your own turn: you can't claim while the table waits for you."
)
CLAIM_NOT_SHOWN = M(
    "claim_not_shown",
    "{other} hasn't been shown the game as it stands: the bot couldn't post it. "
    "`{prefix}board` shows it, and the claim clock starts then.",
)
CLAIM_TOO_EARLY = M(
    "claim_too_early", "{other} has {left} left to act before you can claim the match."
)
CLAIMS = M("claims", "{who} claims the match: {other} has not acted for {idle}. {who} wins")
RATED_NOTE = M("rated_note", " (rated)")
REMINDER = M(
    "reminder",
    "Reminder: {who}, {other} is waiting for you {waiting} ({idle} so far). If you don't, {then}.",
)
REMINDER_WAITING = {
    "roll": M("reminder_waiting_roll", "to roll or double"),
    "move": M("reminder_waiting_move", "to move"),
    "doubled": M("reminder_waiting_doubled", "to take or drop the double"),
    "resigned": M("reminder_waiting_resigned", "to accept or reject the resignation"),
}
REMINDER_WAITING_TO_PLAY = M("reminder_waiting_play", "to play")
REMINDER_CLAIM_IN = M("reminder_claim_in", "{other} may `{prefix}claim` the match in {left}")
REMINDER_CLAIM_NOW = M("reminder_claim_now", "{other} may `{prefix}claim` the match now")

NO_MATCH_YET = M("no_match_yet", "No match has been played at this table yet.")
DAMAGED_MATCH = M(
    "damaged_match",
    "The match here, {first} vs {second} (#{id}), can't be read: its record in the database is "
    "damaged (error {error}). Nothing was changed. A moderator can `{prefix}void` it to free this "
    "channel; `{prefix}export {id}` gives what the database holds.",
)
DAMAGED_LAST = M(
    "damaged_last", "The last match here, {first} vs {second}, is void: its record was damaged."
)
DAMAGED_ENDED = M(
    "damaged_ended",
    "Match #{id}, {first} vs {second}, can't be shown: its record in the database is damaged "
    "(error {error}). `{prefix}export {id}` gives what the database holds.",
)
NO_MATCH_HERE = M(
    "no_match_here", "There is no match at this table. Start one with `{prefix}challenge @user`."
)
NOT_A_MATCH_NUMBER = M(
    "not_a_match_number",
    "{quoted} is not a match number: e.g. `{prefix}{command} 12`, or just `{prefix}{command}` "
    "for this table's last match.",
)
NO_MATCH_NUMBERED = M("no_match_numbered", "There is no match #{number} on this server.")
NO_MATCH_NUMBERED_DM = M("no_match_numbered_dm", "There is no match #{number} in this DM.")
MATCH_IN = M("match_in", "{players} in {link}")
PLAYED_IN_THREADS = M(
    "played_in_threads", "Matches from this channel are played in their threads: {listed}."
)
LAST_IN_THREAD = M(
    "last_in_thread",
    "The last match from this channel, {players}, was played in its thread: {link} (the "
    "command works there).",
)
YOURS_ELSEWHERE = P(
    "yours_elsewhere",
    "There is no match at this table: yours is in {where}{more}. Play there (each channel or "
    "thread is its own table).",
    "There is no match at this table: yours are in {where}{more}. Play there (each channel or "
    "thread is its own table).",
)
AND_MORE = M("and_more", " and {count} more")
REMATCH_WHILE_PLAYING = M(
    "rematch_while_playing",
    "A match is being played here: a rematch comes once it is over. `{prefix}board` shows it.",
)
REMATCH_NO_MATCH = M(
    "rematch_no_match",
    "No match has been played at this table yet: start one with `{prefix}challenge @user`.",
)
REMATCH_OFFERED_ALREADY = M(
    "rematch_offered_already",
    "You have offered {name} a rematch already: waiting for them (`{prefix}cancel` withdraws it).",
)
EXPORT_DAMAGED = M(
    "export_damaged",
    "Match #{number}'s record is damaged, so it has no IDs or `.mat`: attached is what the "
    "database holds of it.",
)
CLAIM_WEIGHTS = M(
    "claim_weights",
    "{who}'s chance to win the match from this position is {chance}% (GNU Backgammon), so each "
    "rating moves by {chance}% of its change for a win and {rest}% of its change for a loss",
)
CLAIM_MOVES_NEITHER = M(
    "claim_moves_neither",
    "Rated by the expected result: {weights}. That would lower {who}'s rating and raise "
    "{other}'s, and a claim never does: neither rating moves.",
)
CLAIM_WEIGHED = M(
    "claim_weighed",
    "Rated by the expected result: {weights} (a claim never lowers the claimer's rating nor "
    "raises the other's).",
)
