"""A tournament's pictures (the bracket, the standings, the round-robin table) and its final
report, with GNU Backgammon's analysis of every match summed per player."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, replace

from bot.gnubg.api import AnalysisDataError, MatchAnalysis
from bot.i18n import images as drawn
from bot.i18n import tournaments as say
from bot.i18n.core import Language, capital
from bot.render.bracket import render_bracket
from bot.render.standings import render_round_robin_grid, render_standings
from bot.render.tournament import ReportRow, render_report_chart
from bot.rules import tournaments as rules
from bot.rules.tournaments.model import Format
from bot.service.models import Attachment, Reply
from bot.service.models import markdown_safe as md
from bot.service.tournaments.state import Snapshot
from bot.store import AnalysisRow
from bot.store.analyses import Analyses


def picture(snapshot: Snapshot, *, language: Language) -> Attachment:
    """The image that shows where the tournament stands: a knockout's bracket, a round robin's
    table of results, a Swiss tournament's standings; its words in ``language``."""
    row = snapshot.row
    fmt = snapshot.format
    total = rules.rounds_total(fmt, len(snapshot.entrants), swiss_rounds=row.swiss_rounds)
    if fmt is Format.KNOCKOUT:
        data = render_bracket(
            title=row.name,
            entrants=snapshot.values,
            pairings=snapshot.rule_pairings,
            results=snapshot.results,
            rounds_total=total,
            language=language,
        )
        return Attachment("bracket.png", data)
    if fmt is Format.ROUND_ROBIN:
        data = render_round_robin_grid(
            title=row.name, entrants=snapshot.values, results=snapshot.results, language=language
        )
        return Attachment("table.png", data)
    kind = say.FORMATS[fmt.value](language)
    kind = capital(kind[0], language) + kind[1:]
    if snapshot.seeds_only:
        subtitle = drawn.SEEDS_SUBTITLE(language, kind=kind, total=total)
    else:
        done = snapshot.rounds_done
        subtitle = drawn.AFTER_ROUND_SUBTITLE(language, kind=kind, round=done, total=total)
    data = render_standings(
        title=row.name, subtitle=subtitle, standings=snapshot.standings, language=language
    )
    return Attachment("standings.png", data)


@dataclass(frozen=True, slots=True)
class _Figures:
    decisions: int = 0
    pr_sum: float = 0.0
    matches: int = 0  # analysed and rated (MIN_RATED_DECISIONS)
    best: float | None = None
    luck: float = 0.0  # EMG, summed over the rated matches (positive: lucky)
    short: int = 0  # analysed matches with too few decisions of theirs to rate

    @property
    def pr(self) -> float | None:
        return self.pr_sum / self.decisions if self.decisions else None

    def text(self, *, language: Language) -> str:
        """``PR 8.1 over 2 analysed (best 6.0), luck +0.35``, and the matches too short."""
        short = say.TOO_SHORT(language, count=self.short) if self.short else ""
        if self.pr is None or self.best is None:
            return short or say.NOT_ANALYSED(language)
        return say.FIGURES(
            language,
            pr=f"{self.pr:.1f}",
            matches=self.matches,
            best=f"{self.best:.1f}",
            short=f"; {short}" if short else "",
            luck=f"{self.luck:+.2f}",
        )


def _luck(job: AnalysisRow) -> tuple[float, float]:
    """Each seat's luck (EMG) in an analysed match, from its stored analysis."""
    try:
        analysis = MatchAnalysis.from_data(json.loads(job.result or "{}"))
    except (AnalysisDataError, ValueError, KeyError, TypeError):
        return 0.0, 0.0
    return analysis.players[0].luck_total, analysis.players[1].luck_total


async def report(
    analyses: Analyses, snapshot: Snapshot, prefix: str, *, draw: bool, language: Language
) -> Reply:
    """The tournament's report: its winner and final standings, and per player the PR over the
    tournament's analysed matches (decisions weighed), their best match and how many of their
    matches are analysed. Matches not analysed yet are counted as such, and the report grows
    as the analyses finish."""
    row = snapshot.row
    table = snapshot.standings
    figures: dict[str, _Figures] = {}
    played = [p for p in snapshot.pairings if p.match_id is not None]
    analysed = 0
    for pairing in played:
        assert pairing.match_id is not None
        job = await analyses.get(pairing.match_id)
        if job is None or job.status != "done":
            continue
        analysed += 1
        luck = _luck(job)
        # Only the players with decisions enough to rate have figures stored (the service's
        # Analyses): the match counts for the others as one too short to rate.
        rated = {player.user_id: player for player in await analyses.players(pairing.match_id)}
        seats = [snapshot.user_id(n) for n in (pairing.first, pairing.second) if n is not None]
        for user_id in seats:
            was = figures.get(user_id, _Figures())
            player = rated.get(user_id)
            if player is None:
                figures[user_id] = replace(was, short=was.short + 1)
                continue
            best = player.pr if was.best is None else min(was.best, player.pr)
            figures[user_id] = replace(
                was,
                decisions=was.decisions + player.decisions,
                pr_sum=was.pr_sum + player.pr * player.decisions,
                matches=was.matches + 1,
                best=best,
                luck=was.luck + luck[player.seat],
            )
    champion = next((s for s in table if s.rank == 1), None)
    lines = [
        say.OVER(language, name=md(row.name))
        if row.status == "finished"
        else say.REPORT_STANDS(
            language, name=md(row.name), status=say.STATUS[row.status](language), round=row.round
        )
    ]
    if champion is not None and row.status == "finished":
        lines.append(say.WINNER(language, name=md(champion.name)))
    more = "" if analysed == len(played) else say.MORE_WITH(language, prefix=prefix)
    lines.append(say.ANALYSED_OF(language, len(played), analysed=analysed, more=more))
    rows: list[ReportRow] = []
    for standing in table:
        user_id = snapshot.user_id(standing.player_id)
        mine = figures.get(user_id, _Figures())
        rows.append(
            ReportRow(
                name=standing.name,
                pr=mine.pr,
                best_match_pr=mine.best,
                luck=mine.luck if mine.matches else None,
                matches=standing.played,
                rank=standing.rank,
                unrated=(drawn.TOO_SHORT if mine.short else drawn.NOT_ANALYSED)(language),
            )
        )
        lines.append(
            say.REPORT_LINE(
                language,
                rank=standing.rank,
                name=md(standing.name),
                placing=snapshot.placing(standing, language=language),
                figures=mine.text(language=language),
            )
        )
    image = None
    if draw:
        data = await asyncio.to_thread(
            render_report_chart, title=f"{row.name}: PR", rows=rows, language=language
        )
        image = Attachment("report.png", data)
    return Reply("\n".join(lines), file=image)
