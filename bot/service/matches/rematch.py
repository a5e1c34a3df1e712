"""After a match: the rematch (the same terms, offered by either player).

A finished match asks its players one more question, :attr:`Decision.REMATCH` (key
``r<match id>``), answered by ``!rematch`` or its button, by either player:

- no challenge open: the one who answers offers the match again, as a challenge to the other
  (so the loser, whom the button asks, challenges: the seats swap); against GNU Backgammon the
  new match starts at once, at the same level, with or without the tutor as before;
- the other player's rematch is open: it is accepted;
- one's own rematch is open: nothing changes, and they are told so.
"""

from __future__ import annotations

import dataclasses

from bot.i18n import play as say
from bot.rules.match import Match
from bot.service.gnubg.opponent import Opponent
from bot.service.matches.challenges import HINTS_WORD, TUTOR_WORD, Challenges
from bot.service.matches.reading import DamagedMatch, MatchReader, require_seat
from bot.service.matches.threads import ThreadOpener
from bot.service.models import ENGINE_ID, Place, Refusal, Reply, Table, User
from bot.service.models import markdown_safe as md
from bot.settings import Settings

REMATCH_LEAD = "Rematch!"


def terms_text(match: Match, *, hints: bool = False) -> str:
    """The challenge terms, as typed, that start ``match`` again: ``3``, ``3 hints``,
    ``money jacoby beavers auto 2``."""
    options = match.options
    words = [str(match.length)] if match.length else ["money"]
    if not match.length:
        words += [
            word for word, on in (("jacoby", options.jacoby), ("beavers", options.beavers)) if on
        ]
        if options.automatic_doubles:
            words += ["auto", str(options.automatic_doubles)]
    if hints:
        words.append(HINTS_WORD)
    return " ".join(words)


class Rematches:
    """The rematch command, run under the channel's lock (the facade's). The summary of a match
    that ends is :class:`bot.service.endings.Summaries`'."""

    def __init__(
        self,
        repository: MatchReader,
        challenges: Challenges,
        opponent: Opponent,
        settings: Settings,
    ) -> None:
        self._repository = repository
        self._challenges = challenges
        self._opponent = opponent
        self._settings = settings

    @property
    def _prefix(self) -> str:
        return self._settings.command_prefix

    async def rematch(
        self, place: Place, user: User, opener: ThreadOpener | None = None
    ) -> list[Reply]:
        """Offer the last match again, or accept the rematch offered (its match may start in
        a thread ``opener``, the front end's, opens)."""
        language = user.language
        playing = await self._repository.table(place)
        if isinstance(playing, DamagedMatch):
            return [playing.reply(language)]
        if playing is not None:
            raise Refusal(say.REMATCH_WHILE_PLAYING(language, prefix=self._prefix))
        last = await self._repository.table(place, latest=True)
        if isinstance(last, DamagedMatch):
            return [last.reply(language)]
        if last is None:
            raise Refusal(say.REMATCH_NO_MATCH(language, prefix=self._prefix))
        seat = require_seat(last, user)
        other_id = last.row.player_ids[1 - seat]
        if other_id == ENGINE_ID:
            return await self._against_engine(place, user, last, opener)
        other = User(other_id, last.plain[1 - seat])
        open_challenge = await self._challenges.open_challenge(place)
        if open_challenge is not None:
            pair = (open_challenge.challenger_id, open_challenge.challenged_id)
            if pair == (other_id, user.id):
                return await self._challenges.accept(place, user, opener)
            if pair == (user.id, other_id):
                raise Refusal(
                    say.REMATCH_OFFERED_ALREADY(language, name=md(other.name), prefix=self._prefix)
                )
            raise Refusal(say.CHALLENGE_OPEN(language, prefix=self._prefix))
        terms = terms_text(last.match, hints=bool(last.row.hints))
        replies = await self._challenges.challenge(place, user, other, terms)
        return _led(replies)

    async def _against_engine(
        self, place: Place, user: User, last: Table, opener: ThreadOpener | None
    ) -> list[Reply]:
        words = [terms_text(last.match), last.row.engine_level or self._settings.bot_level]
        if last.row.tutor:
            words.append(TUTOR_WORD)
        return _led(await self._opponent.start(place, user, " ".join(words), opener))


def _led(replies: list[Reply]) -> list[Reply]:
    """``replies`` with the first public one announced as a rematch."""
    for index, reply in enumerate(replies):
        if not reply.private:
            led = dataclasses.replace(reply, text=f"{REMATCH_LEAD} {reply.text}")
            return [*replies[:index], led, *replies[index + 1 :]]
    return replies
