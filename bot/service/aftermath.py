"""The one dispatcher of what a command at a table did, with the channel's lock released, in
this order:

1. the tutor's comment on the decision (:class:`Tutored`: a roll, a move, the cube), when the
   match has the tutor (:mod:`bot.service.gnubg.coach`);
2. GNU Backgammon's turns, when the match waits on it (:mod:`bot.service.gnubg.opponent`; a
   turn queued behind others ends its own flow, through the same :class:`Endings`);
3. the end of each match the replies show ended (:class:`MatchEnded`): summed up, its result
   in the channel its thread came from, its analysis, its tournament
   (:mod:`bot.service.endings`).

Each step is handed what it needs (the table the command read, the decision, the ended
match): nothing is read again by id.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from bot.service.endings import Endings, ended_in
from bot.service.gnubg.coach import Coach, Tutored, tutored_in_order
from bot.service.gnubg.opponent import Opponent
from bot.service.matches.images import BoardImages
from bot.service.matches.reading import MatchReader
from bot.service.matches.threads import moved_to, sent_to
from bot.service.models import Place, Reply, Table, engine_seat_of


class Aftermath:
    """What follows a command at a table, in the order of the module's docstring."""

    def __init__(
        self,
        coach: Coach,
        opponent: Opponent,
        endings: Endings,
        images: BoardImages,
        repository: MatchReader,
    ) -> None:
        self._coach = coach
        self._opponent = opponent
        self.endings = endings
        self._images = images
        self._repository = repository

    async def after(
        self,
        place: Place,
        replies: list[Reply],
        *,
        before: Table | None = None,
        tutored: Tutored | None = None,
    ) -> list[Reply]:
        """``replies`` of a command at ``place`` and what follows them. ``before``: the table
        the command acted on, as it read it (None: it read none, or not as a match's own)."""
        if before is not None and tutored is not None and before.row.tutor:
            comments = await self._coach.tutor(place, before, tutored)
            replies = tutored_in_order(replies, comments)
        if before is None or engine_seat_of(before.row.player_ids) is not None:
            replies = await self._engine_turns(place, replies)
        return await self.endings.after(place, replies)

    async def resumed(
        self, where: Callable[[Place], bool] = lambda place: True
    ) -> dict[Place, list[Reply]]:
        """At startup: the turns the engine owes in the matches at places ``where`` accepts,
        taken now; the replies by place (a match it ends in a thread also gets its result in
        the thread's channel)."""
        owed = await self._opponent.resume(where)
        for place, replies in list(owed.items()):
            for reply in await self.endings.followers(ended_in(replies)):
                owed.setdefault(reply.place or place, []).append(reply)
        return owed

    async def _engine_turns(self, place: Place, replies: list[Reply]) -> list[Reply]:
        """``replies`` and then the engine's turns at ``place``, if it owes any; the board is
        then shown once, after its turn (in the thread of a match just started in one)."""
        thread = moved_to(replies)
        more = sent_to(await self._opponent.follow(thread or place), thread)
        shown = {reply.announces[0] for reply in more if reply.announces is not None}
        if not shown and not any(reply.job for reply in more):  # it failed: the board after all
            replies = await self._undrawn_boards(place, replies)
        if shown:
            replies = [
                dataclasses.replace(reply, image=None, board_viewer=None)
                if reply.announces is not None and reply.announces[0] in shown
                else reply
                for reply in replies
            ]
        return replies + more

    async def _undrawn_boards(self, place: Place, replies: list[Reply]) -> list[Reply]:
        """``replies`` with the board a move handing the bot its turn left undrawn (see
        :meth:`Play._act <bot.service.matches.play.Play._act>`) drawn, if the match is still as
        that reply shows it. Not for a turn queued: its board comes with the bot's turn, as
        always, and the bot is busy."""
        drawn = []
        for reply in replies:
            if self._images.enabled and reply.image is None and reply.board_viewer is not None:
                table = await self._repository.table(place, repair=False)
                if table is not None and (table.row.id, table.row.version) == reply.announces:
                    image = await self._images.board(table, reply.board_viewer)
                    reply = dataclasses.replace(reply, image=image)
            drawn.append(reply)
        return drawn
