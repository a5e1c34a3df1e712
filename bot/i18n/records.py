"""What the service says about the server's records: the leaderboard, ``!stats`` and ``!dice``."""

from __future__ import annotations

from bot.i18n.core import Message as M
from bot.i18n.core import Plural as P

# -- the leaderboard and !stats -------------------------------------------------------------------
NO_RATED_MATCHES = M(
    "records_no_rated_matches",
    "No rated matches on this server yet: `{prefix}challenge @user` to play one.",
)
LEADERBOARD = M("records_leaderboard", "**Leaderboard** (FIBS ratings)")
LEADERBOARD_LINE = M(
    "records_leaderboard_line", "{place}. {name} {rating} ({wins} won, {losses} lost)"
)
NOT_RANKED = M("records_not_ranked", "{name}: not ranked yet (finish a rated match).")
RANKED = M("records_ranked", "{name}: #{place} of {players}.")
RANK = M("records_rank", "#{place} of {players}")
UNRANKED = M("records_unranked", "unranked")
STATS = M(
    "records_stats",
    "{name}: rating {rating} ({ranked}), experience {experience}; rated matches {wins} won, "
    "{losses} lost; {playing} playing, {aborted} aborted.",
)
BY_LEVEL = M("records_by_level", " By level (won-lost): {counts}.")
AGAINST_ENGINE = M("records_against_engine", " Against GNU Backgammon (won-lost): {counts}.")
TOURNAMENTS = M("records_tournaments", " Tournaments: {entered} played, {won} won.")
TOURNAMENTS_GOING_ON = M(
    "records_tournaments_going_on", " Tournaments: {entered} played, {won} won, {playing} going on."
)
PRIVATE_RECORD = M("records_private", "Games in DMs are unrated: ratings are a server's.")
NO_RECORD_YET = M(
    "records_no_record_yet",
    "You have no record here yet: it starts with your first match (`{prefix}challenge @user`, or "
    "`{prefix}challenge bot`).",
)
NOT_A_PLAYER = M(
    "records_not_a_player",
    "I can't find {name} among this server's players: nobody by that name has played a match "
    "here. Mention a player (`{prefix}stats @bob`), or see `{prefix}leaderboard`.",
)

# -- !dice ----------------------------------------------------------------------------------------
NO_DICE = M("records_no_dice", "No dice have been rolled in this server's matches yet.")
DICE_ROLLED = P(
    "records_dice_rolled",
    "Dice rolled in this server's matches: {count} die, opening rolls included.",
    "Dice rolled in this server's matches: {count} dice, opening rolls included.",
)
COUNT = M("records_count", "count")
SHARE = M("records_share", "share")
EXPECTED = M("records_expected", "(expected 16.67%)")
CHI_SQUARE = M("records_chi_square", "chi-square {statistic} ({degrees} d.f.), p = {p}: {verdict}")
DOUBLES_SHARE = M(
    "records_doubles_share", "{doubles} of {rolls} rolls ({percent}%, expected 16.67%)"
)
DOUBLES_TESTED = M(
    "records_doubles_tested",
    "Doubles: {share}; chi-square {statistic} (1 d.f.), p = {p}: {verdict}.",
)
DOUBLES = M("records_doubles", "Doubles: {share}.")
TOO_FEW = M(
    "records_too_few",
    "Too few rolls to judge the dice yet: a fair test needs at least {dice} dice and {rolls} "
    "rolls, so these are the counts only.",
)
P_MEANS = M(
    "records_p_means",
    "p is the chance that fair dice stray at least this far from even; a small p now and then is "
    "expected by chance alone.",
)
CHANCE_NOTE = M(
    "records_chance_note",
    "Among the many servers that roll dice, some will see a p this small by chance alone.",
)
VERY_UNUSUAL = M("records_very_unusual", "very unusual for fair dice")
UNUSUAL = M("records_unusual", "unusual for fair dice")
LITTLE_UNUSUAL = M("records_little_unusual", "a little unusual for fair dice")
FAIR = M("records_fair", "in line with fair dice")
