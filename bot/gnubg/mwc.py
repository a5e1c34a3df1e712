"""A match-winning chance from gnubg's cubeful evaluation (what a claimed match is rated by).

Runs in a gnubg worker like :mod:`bot.gnubg.worker` (whose helpers it uses; kept apart because
that module is long). gnubg prints its evaluations as text; with ``set output mwc on`` the
cubeful figures are match-winning chances, which are read from there and the setting turned
off again (the cube hints elsewhere read equities).
"""

from __future__ import annotations

import re
from dataclasses import replace

from bot.gnubg.api import Level, Query
from bot.gnubg.session import QueryError, Situation, command, request, use
from bot.gnubg.worker import choose_play
from bot.rules.matchid import encode_match_id

# "static:" or " 2 ply:" lines end with the cubeless and the cubeful MWC: "50.57%    50.81%"
_EVALUATION = re.compile(r"^\s*(?:static|\d+ ply):.*?([\d.]+)%\s+([\d.]+)%\s*$")
# "2. Double, pass         57.73%  ( +6.92%)"
_CUBEFUL = re.compile(r"^\s*\d\.\s+(No (?:re)?double|(?:Re)?[Dd]ouble, \w+)\s+([\d.]+)%")


def _evaluated(situation: Situation) -> str:
    """gnubg's ``eval`` of the situation before its roll, in match-winning chances."""
    situation.set_in_gnubg(situation.before_roll_id())
    try:
        return command("set output mwc on", "eval")
    finally:
        command("set output mwc off")


def _cubeful(text: str, gnubg_id: str) -> float:
    """The deepest evaluation's cubeful MWC in ``eval``'s text, for the player on roll."""
    found = [match for line in text.splitlines() if (match := _EVALUATION.match(line))]
    if not found:
        raise QueryError(f"gnubg gave no evaluation for {gnubg_id!r}: {text.strip()[:200]!r}")
    return float(found[-1][2]) / 100


@request
def match_winning_chance(query: Query, player: int, plies: int = 2) -> float:
    """The chance that ``player`` wins the match (see ``Engine.match_winning_chance``)."""
    situation = Situation.of(query)
    fields = situation.fields
    if not fields.length:
        raise QueryError(f"{query.gnubg_id!r} is a money game: no match to win")
    use(plies, prune=True)
    if fields.doubled:
        # The taker's best answer: the doubler gets the lesser of take and pass.
        text = _evaluated(situation)
        answers = {
            found[1].lower(): float(found[2]) / 100
            for line in text.splitlines()
            if (found := _CUBEFUL.match(line))
        }
        values = [value for name, value in answers.items() if "take" in name or "pass" in name]
        if len(values) < 2:
            raise QueryError(f"gnubg gave no cube analysis for {query.gnubg_id!r}")
        doubler = min(values)
        return doubler if player == fields.on_roll else 1.0 - doubler
    if situation.dice is not None and not fields.resigned:
        # Rolled: the mover makes gnubg's best play, then the opponent is on roll.
        best = choose_play(query, Level(f"{plies}-ply", plies, 0.0, prune=True))
        after = situation.position.parse_play(best or "", situation.dice).result
        other = 1 - fields.on_roll
        next_fields = replace(fields, on_roll=other, turn=other, dice=(0, 0))

        next_id = f"{after.position_id()}:{encode_match_id(next_fields)}"
        situation = Situation.of(replace(query, gnubg_id=next_id))
    chance = _cubeful(_evaluated(situation), situation.query.gnubg_id)
    return chance if player == situation.fields.on_roll else 1.0 - chance
