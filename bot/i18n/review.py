"""The review of an analysed match (:mod:`bot.service.review.room`, ``pages``, ``numbering``):
its refusals and the words of a page. gnubg's marks (??, ?, ?!), its plays, its proper cube
action and every figure are filled in as gnubg gives them."""

from __future__ import annotations

from bot.i18n.core import Message as M

# -- refusals -------------------------------------------------------------------------------------
START_FIRST = M("review_start_first", "Start a review first: `{prefix}review 12` (a match number).")
DECISIONS_RANGE = M(
    "review_decisions_range",
    "Match #{id} has decisions 1 to {count} to review, e.g. `{prefix}review {id} 1`.",
)
NONE_FINISHED = M(
    "review_none_finished",
    "No match has finished here: name one, e.g. `{prefix}review 12` (`{prefix}export` shows a "
    "match's number).",
)
NOT_A_NUMBER = M(
    "review_not_a_number",
    "{quoted} is not a match number: `{prefix}review 12`, `{prefix}review 12 17` (its 17th "
    "decision) or `{prefix}review errors`.",
)
NO_SUCH_MATCH = M("review_no_such_match", "There is no match #{id} on this server.")
BEING_ANALYSED = M(
    "review_being_analysed",
    "Match #{id} is being analysed: `{prefix}review {id}` once it is done.",
)
NOT_ANALYSED = M(
    "review_not_analysed",
    "Match #{id} has no analysis yet: ask for it with `{prefix}analysis {id}`, then "
    "`{prefix}review {id}`.",
)
UNREADABLE = M("review_unreadable", "The analysis of match #{id} can't be read.")
NOTHING_KEPT = M(
    "review_nothing_kept",
    "Match #{id} was analysed before reviews kept every decision, or has none to review.",
)
FIRST_PAGE = M("review_first_page", "This is the first page.")
LAST_PAGE = M("review_last_page", "This is the last page.")
NOTHING_THAT_WAY = {
    "previous": M("review_first_decision", "This is the first decision."),
    "next": M("review_last_decision", "This is the last decision."),
    "mine": M("review_no_more_mine", "You made no more errors after this one."),
    "error": M("review_no_more_errors", "No more errors after this one."),
}
NO_SUCH_PAGE = M("review_no_such_page", "There is no such page.")

# -- a page ---------------------------------------------------------------------------------------
PLACE = M("review_place", "game {game}, move {move}")
DECISION = M("review_decision", "decision {page}/{pages} · {place}")
LUCK = M("review_luck", " · luck {luck}")
TO_PLAY = M("review_to_play", "{who} to play {dice}{luck}")
PLAYED = M("review_played", "Played: **{played}**{verdict}")
NO_LEGAL_MOVE = M("review_no_legal_move", "no legal move")
BEST = M("review_best", "Best: **{best}**")
TO_DOUBLE = M("review_to_double", "{who}: to double or not")
FACING = M("review_facing", "{who}: facing {doubler}'s double")
CUBE_FIGURES = M(
    "review_cube_figures", "No double {no_double} · Double/take {take} · Double/pass {drop}"
)
PROPER = M("review_proper", "Proper action: **{proper}** ({plies}-ply, cubeful)")
BEAVER_UNANALYSED = M(
    "review_beaver_unanalysed", "GNU Backgammon did not analyse this cube decision (a beaver)."
)
AGREES = M("review_agrees", " — gnubg agrees")
EQUAL_BEST = M("review_equal_best", " — one of {count} equal best plays")
WITHIN_BEST = M("review_within_best", " — unmarked: within {within} of gnubg's best ({loss})")
WITHIN_ACTION = M(
    "review_within_action", " — not gnubg's action, unmarked: within {within} of it ({loss})"
)
