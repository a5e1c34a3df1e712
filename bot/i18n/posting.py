"""What the Discord adapter says of its own: the buttons' labels (the registry's commands name
them), the notes when a board or a chart can't be attached, and a match thread's notices."""

from __future__ import annotations

from bot.i18n.core import Message as M
from bot.i18n.core import Plural as P

# -- buttons' labels: short (a word or two), shown to everyone at the table -----------------------
ACCEPT = M("button_accept", "Accept")
DECLINE = M("button_decline", "Decline")
REMATCH = M("button_rematch", "Rematch")
ROLL = M("button_roll", "Roll")
DOUBLE = M("button_double", "Double")
TAKE = M("button_take", "Take")
DROP = M("button_drop", "Drop")
BEAVER = M("button_beaver", "Beaver")
REJECT = M("button_reject", "Reject")
JOIN = M("button_join", "Join")
LEAVE = M("button_leave", "Leave")
NEXT_ERROR_OF_MINE = M("button_next_error_of_mine", "Next error of mine")
NEXT_ERROR = M("button_next_error", "Next error")
REVIEW = M("button_review", "Review")
NO_DOUBLE = M("button_no_double", "No double")
PASS = M("button_pass", "Pass")
ANSWER = M("button_answer", "Answer")

# -- a board or a chart that could not be attached ------------------------------------------------
NO_ATTACH_BOARD = M(
    "no_attach_board",
    "(I can't attach the board here: I need the Attach Files permission in this channel.)",
)
TOO_LARGE_BOARD = M("too_large_board", "(The attachment was too large to upload.)")
NO_ATTACH_CHART = M(
    "no_attach_chart",
    "(I can't attach the chart here: I need the Attach Files permission in this channel.)",
)
TOO_LARGE_CHART = M("too_large_chart", "(The chart was too large to upload.)")

# -- a match's thread: its name (plain text, no Markdown) and the notices said in it ---------------
THREAD_NAME = M("thread_name", "{first} vs {second} · {kind}")
THREAD_MONEY = M("thread_money", "money")
TOURNAMENT_THREAD_NAME = M(
    "tournament_thread_name", "{name} R{round}-{table} · {first} vs {second}"
)
NO_THREAD = P(
    "no_thread",
    "I can't give matches a thread of their own here: I need the {permissions} permission in "
    "this channel. Until then they are played in the channel.",
    "I can't give matches a thread of their own here: I need the {permissions} permissions in "
    "this channel. Until then they are played in the channel.",
)
UNUSED_THREAD = M(
    "unused_thread", "This thread is not used: the challenge was answered elsewhere first."
)
