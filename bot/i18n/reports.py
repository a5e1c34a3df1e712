"""What the untranslated count did not see (issue 34): a match's start against GNU Backgammon
or in a tournament, a match's end (its summary), ``!export``, the descriptions of a position
(``!show``, ``!eval``, puzzles), ``!eval``'s figures, ``!analysis`` and ``!review``'s figures.
Numbers, plays, IDs and gnubg's marks are filled in as gnubg gives them."""

from __future__ import annotations

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
