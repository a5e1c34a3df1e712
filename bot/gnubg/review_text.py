"""Every decision of GNU Backgammon's ``export match text``, in full, for the review and drills.

:func:`review` reads the blocks :mod:`bot.gnubg.analysis_text` splits into
:class:`~bot.gnubg.decisions.ReviewedDecision` values: gnubg's candidate plays with their depth,
equity and difference, its cube figures and verdict, the roll's luck, its marks "doubtful",
"bad" and "very bad", which 1.1.0a16 gives past 0.03, 0.06 and 0.12 EMG lost (see that module).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from bot.gnubg.analysis_text import (
    CUBE_LINE,
    DECIDER,
    AnalysisTextError,
    proper_action,
    read_number,
    split_blocks,
    without_dice,
)
from bot.gnubg.decisions import Candidate, CubeFigures, ReviewedDecision, checker_decision
from bot.rules.matchid import GAME_NONE, GAME_PLAYING, decode_match_id, encode_match_id

_LISTED = re.compile(
    r"^(\*)?\s*(?:(\d+)\.|\?\?)\s+(Cubeful|Cubeless)\s+(\d+)-ply\s+(.+?)\s+(?:Eq\.|MWC):\s+"
    r"([+-]?\s*\d+\.\d+)%?(?:\s+\(\s*([+-]?\d+\.\d+)%?\))?"
)
_ROLLED = re.compile(r"^Rolled \d\d(?: \(\s*([+-]?\d+\.\d+)%?\))?:")
_CUBE_ALERT = re.compile(
    r"^Alert: (missed double|wrong double|wrong take|wrong pass) \(\s*([+-]?\d+\.\d+)%?\)!"
)
_MARKED = re.compile(r"^Alert: (?:double|take) decision marked (doubtful|bad|very bad)\s*$")
_SKILL_LINE = re.compile(r"^\s*\[(doubtful|bad|very bad)\]\s*$")
_MOVE_ALERT = re.compile(r"^Alert: (doubtful|bad|very bad) move")
_LUCK_ALERT = re.compile(r"^Alert: (very lucky|lucky|unlucky|very unlucky) roll!")
_CUBE_PLIES = re.compile(r"^(\d+)-ply cubeless")
_MOVED = re.compile(r"^\* p[01] moves (.+?)\s*$")


@dataclass
class _Listed:
    played: bool
    rank: int | None
    cubeful: bool
    plies: int
    play: str
    value: float  # as printed: equity, or MWC in percent
    difference: float


@dataclass
class _Block:
    """What one block of the export says, numbers as printed (percent in the MWC export)."""

    gnubg_id: str = ""
    verb: str | None = None
    moved: str | None = None
    analysed_cube: bool = True  # False: "Cannot analyse beaver nor raccoons!"
    cube_figures: dict[str, float] = field(default_factory=dict)
    cube_plies: int = 0
    proper: str | None = None
    cube_loss: float = 0.0
    cube_skill: str = ""
    move_skill: str = ""
    luck: float | None = None
    luck_mark: str = ""
    listed: list[_Listed] = field(default_factory=list)


def _read(lines: Sequence[str]) -> _Block:
    block = _Block()
    position = match_id = ""
    for index, line in enumerate(lines):
        if "Position ID:" in line:
            position = line.split("Position ID:")[1].strip()
        elif "Match ID   :" in line:
            match_id = line.split(":")[1].strip()
        elif found := _MOVED.match(line):
            block.verb, block.moved = "moves", found.group(1)
        elif found := DECIDER.match(line):
            block.verb = found.group(1)
        elif found := _LISTED.match(line):
            block.listed.append(
                _Listed(
                    played=bool(found.group(1)),
                    rank=int(found.group(2)) if found.group(2) else None,
                    cubeful=found.group(3) == "Cubeful",
                    plies=int(found.group(4)),
                    play=found.group(5),
                    value=read_number(found.group(6)),
                    difference=float(found.group(7)) if found.group(7) else 0.0,
                )
            )
        elif found := CUBE_LINE.match(line):
            block.cube_figures[found.group(1).lower()] = read_number(found.group(2))
        elif found := _CUBE_PLIES.match(line):
            block.cube_plies = int(found.group(1))
        elif line.startswith("Proper cube action:"):
            block.proper = re.sub(r"\s*\(.*\)\s*$", "", line.split(":", 1)[1].strip())
        elif line.startswith("Cannot analyse"):
            block.analysed_cube = False
        elif found := _CUBE_ALERT.match(line):
            block.cube_loss = abs(float(found.group(2)))
            mark = _SKILL_LINE.match(lines[index + 1] if index + 1 < len(lines) else "")
            block.cube_skill = mark.group(1) if mark else ""
        elif found := _MARKED.match(line):  # a cube decision's mark, without an alert
            block.cube_skill = found.group(1)
        elif found := _MOVE_ALERT.match(line):
            block.move_skill = found.group(1)
        elif found := _LUCK_ALERT.match(line):
            block.luck_mark = found.group(1)
        elif found := _ROLLED.match(line):
            block.luck = float(found.group(1)) if found.group(1) else None
    if position and match_id:
        fields = decode_match_id(match_id)
        if fields.game_state == GAME_NONE:  # gnubg's export says so of each game's first roll
            match_id = encode_match_id(replace(fields, game_state=GAME_PLAYING))
        block.gnubg_id = f"{position}:{match_id}"
    return block


def _percent(value: float | None) -> float | None:
    """A percentage gnubg printed as a fraction, rounded as printed (to 0.001%)."""
    return None if value is None else round(value / 100, 5)


def _cube_figures(emg: _Block, mwc: _Block | None, doubler_side: bool) -> CubeFigures | None:
    """gnubg's cube analysis, from the doubler's side (the answer's block prints it negated).
    ``mwc`` is the MWC export's block holding the doubler's figures (None for money)."""
    figures = emg.cube_figures
    if not emg.analysed_cube or emg.proper is None or len(figures) != 3:
        return None
    sign = 1.0 if doubler_side else -1.0
    percent = mwc.cube_figures if mwc is not None and len(mwc.cube_figures) == 3 else {}
    return CubeFigures(
        no_double=sign * figures["no double"] + 0.0,
        double_take=sign * figures["double, take"] + 0.0,
        double_pass=sign * figures["double, pass"] + 0.0,
        proper=emg.proper,
        plies=emg.cube_plies,
        no_double_mwc=_percent(percent.get("no double")),
        double_take_mwc=_percent(percent.get("double, take")),
        double_pass_mwc=_percent(percent.get("double, pass")),
    )


def _candidates(emg: _Block, mwc: _Block | None) -> tuple[list[Candidate], int | str | None]:
    """gnubg's list for a roll (MWC figures from the MWC export's list, in the same order) and
    the index of the play made (or the play itself when gnubg didn't list it)."""
    percent = mwc.listed if mwc is not None else []
    if percent and [c.play for c in percent] != [c.play for c in emg.listed]:
        raise AnalysisTextError("the MWC export lists other plays than the equity export")
    candidates = [
        Candidate(
            rank=listed.rank,
            play=listed.play,
            plies=listed.plies,
            equity=listed.value,
            difference=listed.difference,
            mwc=_percent(percent[index].value) if percent else None,
            mwc_difference=_percent(percent[index].difference) if percent else None,
            cubeful=listed.cubeful,
        )
        for index, listed in enumerate(emg.listed)
    ]
    played = next((i for i, listed in enumerate(emg.listed) if listed.played), None)
    return candidates, played if played is not None else emg.moved


def _reviewed(
    game: int,
    header: re.Match[str],
    emg: _Block,
    mwc: _Block | None,
    doubled_mwc: _Block | None,
    beavers: bool,
    every_play: bool,
) -> list[ReviewedDecision]:
    """The decisions of one block: a roll (after a cube decision not to double, when the
    player could), a double, or the answer to one (the header names the doubler)."""
    move, player, rest = int(header.group(1)), int(header.group(2)[1]), header.group(3)
    if not rest.startswith(("to play", "on roll, cube decision", "doubles to")):
        return []  # a resignation: no decision gnubg analysed
    if not emg.gnubg_id:
        raise AnalysisTextError(f"move {move} of game {game} has no Position ID and Match ID")
    owned = decode_match_id(emg.gnubg_id.partition(":")[2]).cube_owner is not None
    judged = _Judged(game, move, emg, mwc, beavers)
    if rest.startswith("doubles to"):
        action = {"accepts": "Take", "rejects": "Pass", "doubles": "Beaver"}.get(emg.verb or "")
        if action is None:
            raise AnalysisTextError(f"move {move} of game {game}: no answer to the double")
        cube = _cube_figures(emg, doubled_mwc, doubler_side=False)
        return [judged.cube_decision(1 - player, "take", emg.gnubg_id, cube, action)]
    cube = _cube_figures(emg, mwc, doubler_side=True)
    if rest.startswith("on roll, cube decision"):
        action = "Redouble" if owned else "Double"
        return [judged.cube_decision(player, "cube", emg.gnubg_id, cube, action)]
    found = []
    if cube is not None:  # the player could double before this roll, and didn't
        action = "No redouble" if owned else "No double"
        found.append(judged.cube_decision(player, "cube", without_dice(emg.gnubg_id), cube, action))
    candidates, played = _candidates(emg, mwc)
    found.append(
        checker_decision(
            game,
            move,
            player,
            emg.gnubg_id,
            candidates,
            played,
            skill=emg.move_skill,
            luck=emg.luck,
            luck_mwc=None if mwc is None else _percent(mwc.luck),
            luck_mark=emg.luck_mark,
            listed=every_play,
        )
    )
    return found


@dataclass(frozen=True)
class _Judged:
    """A block's cube judgement (its alert and mark), for the decision it is about."""

    game: int
    move: int
    emg: _Block
    mwc: _Block | None
    beavers: bool

    def cube_decision(
        self, player: int, kind: str, gnubg_id: str, cube: CubeFigures | None, played: str
    ) -> ReviewedDecision:
        if cube is None:  # gnubg didn't analyse it
            return ReviewedDecision(
                self.game, self.move, player, kind, gnubg_id, played, None, cube=None
            )
        return ReviewedDecision(
            game=self.game,
            move=self.move,
            player=player,
            kind=kind,
            gnubg_id=gnubg_id,
            played=played,
            best=proper_action(cube.proper, kind == "cube", self.beavers),
            loss=self.emg.cube_loss,
            loss_mwc=None if self.mwc is None else _percent(self.mwc.cube_loss),
            skill=self.emg.cube_skill,
            cube=cube,
        )


def review(
    games: Sequence[str],
    *,
    money: bool,
    beavers: bool = False,
    mwc_games: Sequence[str] | None = None,
    every_play: bool = False,
) -> list[ReviewedDecision]:
    """Every decision in ``export match text`` (one text per game, in order), as gnubg judged
    it; ``mwc_games`` is the same export with ``set output mwc on`` (match play), for the match
    winning chances; ``beavers``: the money game allowed them. ``every_play``: the export lists
    every play of each roll (``set export moves number`` :data:`EVERY_PLAY`), so the play made
    gets its true rank (see :func:`~bot.gnubg.decisions.in_review_order`); only the first five
    and the play made are kept."""
    if not money and mwc_games is not None and len(mwc_games) != len(games):
        raise AnalysisTextError(f"{len(games)} games exported but {len(mwc_games)} with MWC")
    decisions: list[ReviewedDecision] = []
    for number, text in enumerate(games, start=1):
        mwc_blocks: dict[int, _Block] = {}
        if not money and mwc_games is not None:
            mwc_blocks = {
                int(header.group(1)): _read(lines)
                for header, lines in split_blocks(mwc_games[number - 1])
            }
        doubled: _Block | None = None  # the MWC block of the last double (the doubler's side)
        for header, lines in split_blocks(text):
            mwc = None if money or mwc_games is None else mwc_blocks.get(int(header.group(1)))
            if mwc is None and not money and mwc_games is not None:
                raise AnalysisTextError(f"move {header.group(1)} of game {number} has no MWC")
            emg = _read(lines)
            decisions.extend(_reviewed(number, header, emg, mwc, doubled, beavers, every_play))
            if header.group(3).startswith("on roll, cube decision"):
                doubled = mwc
    return decisions
