"""The words drawn in images (:mod:`bot.render`): the board's status line and strips, the
analysis chart, the tournaments' bracket, tables and report chart. Short forms: a board's strips
are narrow, and the renderers fit (or cut) a longer translation into the room there is.

Names, numbers, dice (``6-4``), plays (``13/7``), gnubg's figures and marks (``PR``, ``50%``)
are drawn as they are in every language. A round's name and a tournament's format are the
tournament replies' own (:mod:`bot.i18n.tournaments`)."""

from __future__ import annotations

from bot.i18n.core import Message as M
from bot.i18n.core import Plural as P

# -- the board's status line ----------------------------------------------------------------------
TO_ROLL = M("image_to_roll", "{who} to roll or double")
TO_MOVE = M("image_to_move", "{who} to move")
TO_MOVE_DICE = M("image_to_move_dice", "{who} to move {dice}")
DOUBLED_TO = M("image_doubled_to", "{who} doubled to {cube}")
TAKE_OR_DROP = M("image_take_or_drop", "take or drop")
TAKE_DROP_OR_BEAVER = M("image_take_drop_or_beaver", "take, drop or beaver")
DOUBLED_SHORT = M("image_doubled_short", "{doubled}: {answers}?")
DOUBLED_ANSWER = M("image_doubled_answer", "{doubled} — {other} to {answers}")
OFFERS_TO_RESIGN = M("image_offers_to_resign", "{who} offers to resign")
OFFERS_TO_RESIGN_LEVEL = M(
    "image_offers_to_resign_level", "{who} offers to resign {level} ({points})"
)
RESIGN_ANSWER = M("image_resign_answer", "{offer} — {other} to accept or reject")
GAME_OVER = M("image_game_over", "game over")
WINS_MATCH = M("image_wins_match", "{who} wins the match {score}")
WINS_BIG_AND_MATCH = {
    "gammon": M("image_wins_gammon_and_match", "{who} wins a gammon and the match {score}"),
    "backgammon": M(
        "image_wins_backgammon_and_match", "{who} wins a backgammon and the match {score}"
    ),
}
WINS_BIG_POINTS = {
    "gammon": M("image_wins_gammon_points", "{who} wins a gammon: {points}"),
    "backgammon": M("image_wins_backgammon_points", "{who} wins a backgammon: {points}"),
}
WINS_BIG = {
    "gammon": M("image_wins_gammon", "{who} wins a gammon"),
    "backgammon": M("image_wins_backgammon", "{who} wins a backgammon"),
}
WINS_POINTS = M("image_wins_points", "{who} wins {points}")
WINS_GAME = M("image_wins_game", "{who} wins the game")

# -- the board's strips ---------------------------------------------------------------------------
MATCH_TO = P("image_match_to", "Match to {n}", "Match to {n}")
CRAWFORD_GAME = M("image_crawford_game", "{match} · Crawford game")
MONEY_GAME = M("image_money_game", "Money game")
PIPS = M("image_pips", "{pips} pips")
SCORE = M("image_score", "score {score}")
WINNER = M("image_winner", "winner")
PLAYED = M("image_played", "{who} played {dice}: {play}")
LEGEND = {
    "played": M("image_legend_played", "played"),
    "best": M("image_legend_best", "best"),
    "candidate": M("image_legend_other", "other"),
}

# -- the analysis chart ---------------------------------------------------------------------------
CHART_MATCH = M("image_chart_match", "{length}-point match: chances to win the match")
CHART_MONEY = M("image_chart_money", "Money game: chances to win the game")
CHART_VS = M("image_chart_vs", "vs")
CHART_BEAT = M("image_chart_beat", "beat")
CHART_PLIES = M("image_chart_plies", "{plies}-ply analysis")
CHART_WON = M("image_chart_won", "{mark} won")
CHART_EMPTY = M("image_chart_empty", "No decisions to chart")
CHART_GAME = M("image_chart_game", "Game {game}")
CHART_VERY_BAD = M("image_chart_very_bad", "very bad decisions")
CHART_ERRORS = {
    "doubtful": M("image_chart_doubtful", "doubtful"),
    "error": M("image_chart_error", "error"),
    "blunder": M("image_chart_blunder", "blunder"),
}
CHART_DOUBLE_TAKE = M("image_chart_double_take", "double, take")
CHART_PASS = M("image_chart_pass", "pass")
CHART_NO_DOUBLE = M("image_chart_no_double", "no double")
CHART_CUBE = M("image_chart_cube", "cube")

# -- the tournaments' images ----------------------------------------------------------------------
KNOCKOUT_PLAYERS = P("image_knockout_players", "Knockout · {n} player", "Knockout · {n} players")
CHAMPION_IS = M("image_champion_is", "Champion: {name}")
WAITING_FOR_DRAW = M("image_waiting_for_draw", "waiting for the draw")
IN_PLAY = M("image_in_play", "{round} in play")
ROUND_ONE_HIDDEN = M("image_round_one_hidden", "Round 1 not shown")
ROUNDS_HIDDEN = M("image_rounds_hidden", "Rounds 1{dash}{last} not shown")
ONWARDS = M("image_onwards", "{round} onwards to come")
BYE = M("image_bye", "bye")
BYES = P("image_byes", "bye", "{n} byes")
CHAMPION = M("image_champion", "Champion")
WON = M("image_won", "W")
LOST = M("image_lost", "L")
A_PLAYER = M("image_a_player", "player {id}")
RANK = M("image_rank", "#")
PLAYER = M("image_player", "Player")
MATCH_POINTS = M("image_match_points", "MP")
PLAYED_COLUMN = M("image_played_column", "Played")
WON_LOST = M("image_won_lost", "W-L")
BUCHHOLZ = M("image_buchholz", "Buchholz")
WITHDRAWN = M("image_withdrawn", "withdrawn")
NO_STANDINGS = M("image_no_standings", "No standings yet")
ROUND_ROBIN = P(
    "image_round_robin",
    "Round robin · {players} players · {n} match played",
    "Round robin · {players} players · {n} matches played",
)
SEEDS_SUBTITLE = M("image_seeds_subtitle", "{kind}: the seeds, round 1 of {total} being played")
AFTER_ROUND_SUBTITLE = M("image_after_round_subtitle", "{kind}, after round {round} of {total}")
REPORT_SUBTITLE = M(
    "image_report_subtitle", "PR over the tournament: lower is better · ◆ best match"
)
LUCK = M("image_luck", "luck")
MATCHES = M("image_matches", "matches")
NO_PLAYERS = M("image_no_players", "No players")
NOT_ANALYSED = M("image_not_analysed", "not analysed")
TOO_SHORT = M("image_too_short", "too short to rate")
