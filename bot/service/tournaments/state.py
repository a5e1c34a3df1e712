"""A tournament as read from the store, turned into the pure rules' values (entrants numbered,
results of the decided pairings) and back into words."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from bot.i18n import tournaments as say
from bot.i18n.core import Language
from bot.rules.notation import whole_number
from bot.rules.tournaments.model import Entrant, Format, Pairing, Result, Standing
from bot.rules.tournaments.pairing import knockout_walk, rounds_total
from bot.rules.tournaments.standings import standings
from bot.service.models import Place, place_link
from bot.service.models import markdown_safe as md
from bot.store.tournaments import EntrantRow, PairingRow, TournamentRow

# A message fits Discord's 2,000 characters: long lists are cut, the image shows the standings.
NAMES_SHOWN = 32
LINES_SHOWN = 20


def capped(items: list[str], most: int) -> list[str]:
    """``items``, or its first ``most`` and a last item saying how many more there are."""
    if len(items) <= most:
        return items
    return [*items[:most], f"... and {len(items) - most} more"]


@dataclass(frozen=True)
class Snapshot:
    """One tournament as it stands: its row, entrants and pairings."""

    row: TournamentRow
    entrants: tuple[EntrantRow, ...]
    pairings: tuple[PairingRow, ...]

    @property
    def format(self) -> Format:
        return Format(self.row.format)

    @property
    def home(self) -> Place:
        return Place(self.row.server_id, self.row.channel_id)

    @cached_property
    def by_number(self) -> dict[int, EntrantRow]:
        return {entrant.number: entrant for entrant in self.entrants}

    def entrant_of(self, user_id: str) -> EntrantRow | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @cached_property
    def values(self) -> tuple[Entrant, ...]:
        """The entrants as the pairing rules take them (player id = entrant number)."""
        return tuple(
            Entrant(e.number, e.name, e.seed if e.seed is not None else e.number)
            for e in self.entrants
        )

    @cached_property
    def withdrawn(self) -> frozenset[int]:
        return frozenset(e.number for e in self.entrants if e.withdrawn)

    @cached_property
    def results(self) -> tuple[Result, ...]:
        return tuple(result_of(p) for p in self.pairings if p.decided_at is not None)

    @cached_property
    def rounds_done(self) -> int:
        """How many rounds have every pairing decided (the current one, once it has)."""
        open_now = any(p.decided_at is None for p in self.round_pairings())
        return max(0, self.row.round - int(open_now))

    @property
    def seeds_only(self) -> bool:
        """Whether there are no standings yet, only seeds: a Swiss or round robin before its
        first round is over (a bye decided at the pairing ranks nobody first)."""
        return self.format is not Format.KNOCKOUT and self.rounds_done == 0

    @cached_property
    def standings(self) -> tuple[Standing, ...]:
        """A Swiss's or round robin's standings after the rounds done (results of the round
        being played wait for it to end, as Swiss software has them); a knockout's as each
        result comes. While :attr:`seeds_only`, each line's rank is its seed."""
        results = self.results
        if self.format is not Format.KNOCKOUT:
            results = tuple(r for r in results if r.round <= self.rounds_done)
        table = standings(self.format, self.values, results, withdrawn=self.withdrawn)
        if not self.seeds_only:
            return table
        seeds = {entrant.player_id: entrant.seed for entrant in self.values}
        return tuple(
            replace(line, rank=seeds[line.player_id])
            for line in sorted(table, key=lambda line: seeds[line.player_id])
        )

    @cached_property
    def rule_pairings(self) -> tuple[Pairing, ...]:
        return tuple(Pairing(p.round, p.table_no, p.first, p.second) for p in self.pairings)

    def round_pairings(self, round_no: int | None = None) -> list[PairingRow]:
        wanted = self.row.round if round_no is None else round_no
        return [p for p in self.pairings if p.round == wanted]

    def pairing_at(self, round_no: int, table_no: int) -> PairingRow | None:
        return next(
            (p for p in self.pairings if (p.round, p.table_no) == (round_no, table_no)), None
        )

    def name(self, number: int | None) -> str:
        if number is None:
            return "bye"
        entrant = self.by_number.get(number)
        return md(entrant.name) if entrant is not None else f"#{number}"

    def user_id(self, number: int) -> str:
        return self.by_number[number].user_id

    def find_pairing(self, label: str) -> PairingRow | None:
        """A pairing by its label: ``2.3`` or ``R2.3`` (round 2, table 3), ``3`` (table 3 of
        the current round), or ``#41`` (the pairing played as match 41)."""
        word = label.strip().lower().removeprefix("r")
        if word.startswith("#"):
            match_id = whole_number(word[1:])
            return next((p for p in self.pairings if p.match_id == match_id), None)
        round_text, _, table_text = word.rpartition(".")
        round_no = whole_number(round_text) if round_text else self.row.round
        table = whole_number(table_text)
        if round_no is None or table is None:
            return None
        return self.pairing_at(round_no, table)

    def round_title(self, round_no: int, total: int, *, language: Language) -> str:
        if self.format is Format.KNOCKOUT:
            return say.knockout_round_name(round_no, total, language)
        return say.ROUND_N(language, round=round_no)

    @cached_property
    def rounds_total(self) -> int:
        return rounds_total(self.format, len(self.entrants), swiss_rounds=self.row.swiss_rounds)

    @cached_property
    def knocked_out(self) -> dict[int, int]:
        """A knockout's players who are out, each with the round that put them out."""
        return knockout_walk(self.values, self.results, self.withdrawn).out

    def placing(self, line: Standing, *, language: Language) -> str:
        """Where a player of the standings stands, after ``N. name: ``: their match points, or
        how far a knockout's player went (``out in the quarter-finals``, ``still in``), which is
        what ranks a knockout: match points and tie-breaks would only be noise there."""
        if self.format is not Format.KNOCKOUT:
            return points_text(line.match_points, language=language)
        if line.losses:  # out at their first loss: the round the bracket's walk has them out
            round_no = self.knocked_out[line.player_id]
            if self.rounds_total - round_no + 1 in say.OUT_IN_NAMED:
                return say.OUT_IN_NAMED[self.rounds_total - round_no + 1](language)
            return say.OUT_IN_ROUND(language, round=round_no)
        if line.withdrawn:
            return say.PLACING_REMOVED(language)
        if self.row.status == "finished" and line.rank == 1:
            return say.CHAMPION(language)
        return say.STILL_IN(language)

    def pairing_line(self, pairing: PairingRow, *, language: Language) -> str:
        """``2.3 alice vs bob: alice 3-1 (played) in #thread``."""
        label = f"`{pairing.round}.{pairing.table_no}`"
        if pairing.second is None:
            return say.PAIRING_BYE(language, label=label, first=self.name(pairing.first))
        players = say.PLAYERS(
            language, first=self.name(pairing.first), second=self.name(pairing.second)
        )
        line = f"{label} {players}"
        if pairing.decided_at is not None:
            if pairing.winner is None:
                return say.PAIRING_NOBODY(language, line=line, reason=pairing.reason)
            winner = self.name(pairing.winner)
            result = result_words(pairing, language=language)
            return say.PAIRING_WON(language, line=line, winner=winner, result=result)
        if pairing.channel_id is not None:
            link = place_link(Place(self.row.server_id, pairing.channel_id))
            return say.PAIRING_PLAYING(language, line=line, link=link)
        return say.PAIRING_TO_OPEN(language, line=line)


def result_words(pairing: PairingRow, *, language: Language) -> str:
    """How the winner of a decided ``pairing`` won, the winner's score first: ``3-1``, ``by
    claim at 1-2``, ``on time``, ``(forfeit, bob removed; at 1-0)``; a match not played out has its
    score only when someone had scored."""
    assert pairing.winner is not None
    won = pairing.first_points if pairing.winner == pairing.first else pairing.second_points
    lost = pairing.first_points + pairing.second_points - won
    score = f"{won}-{lost}"
    reason = pairing.reason or "played"
    if reason == "played":
        return score
    at = say.AT_SCORE(language, score=score) if won or lost else ""
    if reason in say.ENDINGS:
        return f"{say.ENDINGS[reason](language)}{at}"
    return f"({reason}{';' if at else ''}{at})"


def standing_line(line: Standing, fmt: Format, *, language: Language) -> str:
    """``2. alice: 2 match points (with a bye: a win without a game), 1-1, Buchholz 3, +2``:
    the W-L counts matches played; a bye is said beside the match points it gave."""
    byes = ""
    if line.byes and fmt is not Format.ROUND_ROBIN:
        byes = say.STANDING_BYES(language, line.byes)
    return say.STANDING(
        language,
        rank=line.rank,
        name=md(line.name),
        points=points_text(line.match_points, language=language),
        byes=byes,
        wins=line.wins,
        losses=line.losses,
        buchholz=line.buchholz,
        difference=f"{line.points_difference:+d}",
        removed=say.STANDING_REMOVED(language) if line.withdrawn else "",
    )


def points_text(points: int, *, language: Language) -> str:
    """``1 match point``, ``2 match points``."""
    return say.MATCH_POINTS(language, points)


def result_of(pairing: PairingRow) -> Result:
    return Result(
        pairing.round,
        pairing.table_no,
        pairing.first,
        pairing.second,
        pairing.winner,
        pairing.first_points,
        pairing.second_points,
        pairing.reason or "played",
    )
