"""Reading GNU Backgammon's analysis text: ``show statistics match`` and ``export match text``.

Pure functions over captured text, so they run (and are tested) without gnubg. The worker renames
the players ``p0`` and ``p1`` before it captures anything, so a name never has to be told apart
from the text around it: the real names come from the ``.mat`` file (:func:`mat_names`).

The export is read block by block ("Move number N: ..."): a checker play (with the cube decision
before its roll, when there was one), a double, or the answer to one. Equities are EMG; match
play is exported a second time with ``set output mwc on`` to read the match winning chances the
chart shows.

Two readings: :func:`parse_export` takes the facts the figures, the worst mistakes and the chart
need; :func:`bot.gnubg.review_text.review` takes every decision in full for the review and
drills, from the blocks this module splits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from bot.gnubg.api import ChartPoint, Mistake, PlayerAnalysis
from bot.rules.matchid import decode_match_id, encode_match_id

GNUBG_NAMES = ("p0", "p1")  # what the worker renames the players to
EVERY_PLAY = 5000  # ``set export moves number``: more than any roll's plays (gnubg's MAX_MOVES)


class AnalysisTextError(ValueError):
    """gnubg's text isn't what this module reads (a gnubg version that words it differently)."""


# -- the .mat file ------------------------------------------------------------------------------

_NAMES_LINE = re.compile(r"^ ?(\S.*?) : (\d+)\s+(\S.*?) : (\d+)\s*$")


def mat_names(mat: str) -> tuple[str, str]:
    """The two players' names in a ``.mat`` file (player 0's first), from its first game."""
    lines = mat.splitlines()
    for index, line in enumerate(lines[:-1]):
        if re.match(r"^\s*Game \d+\s*$", line):
            found = _NAMES_LINE.match(lines[index + 1])
            if found:
                return found.group(1), found.group(3)
    return "Player 1", "Player 2"


# -- show statistics match ---------------------------------------------------------------------

_COLUMN = 41  # where the first player's column starts
_WIDTH = 24
_PARENTHESES = re.compile(r"\((?:[^()]|\([^()]*\))*\)")
_NUMBER = re.compile(r"[+-]?\d+\.\d+")


def _statistics_lines(text: str) -> dict[tuple[str, str], str]:
    """{(section, label): the rest of the line}: a label repeats across sections."""
    section = ""
    found: dict[tuple[str, str], str] = {}
    for line in text.splitlines():
        if line.rstrip().endswith("statistics") and not line.startswith(" "):
            section = line.split()[0].lower()
            continue
        label = re.sub(r"\s*\(.*$", "", line[:_COLUMN]).strip()
        if label:
            found.setdefault((section, label), line[_COLUMN - 2 :])
    return found


_FIGURE = re.compile(r"n/a|[+-]?\d+\.\d+")


def _floats(rest: str) -> tuple[float, float]:
    """The two players' first figures on a line of pairs such as ``-32.235 (-1012.723%)``.
    gnubg prints "n/a" for a player with nothing to count (the luck rate of one who never
    rolled) and leaves a line out when neither has any: 0 for them."""
    found = _FIGURE.findall(_PARENTHESES.sub(" ", rest))
    if not found:
        return 0.0, 0.0
    if len(found) != 2:
        raise AnalysisTextError(f"can't tell the two players' figures apart in {rest.strip()!r}")
    first, second = (0.0 if figure == "n/a" else float(figure) for figure in found)
    return first, second


def _counts(rest: str) -> tuple[int, int]:
    numbers = _PARENTHESES.sub(" ", rest).split()
    if len(numbers) != 2 or not all(n.isdigit() for n in numbers):
        raise AnalysisTextError(f"expected two counts, not {rest.strip()!r}")
    return int(numbers[0]), int(numbers[1])


def _words(line: str) -> tuple[str, str]:
    return line[2 : 2 + _WIDTH].strip(), line[2 + _WIDTH :].strip()


def parse_statistics(
    text: str,
    names: Sequence[str],
    cube_blunders: Sequence[int] = (0, 0),
    cube_errors: Sequence[int] | None = None,
) -> tuple[PlayerAnalysis, PlayerAnalysis]:
    """Both players' figures from ``show statistics match`` (players renamed ``p0``/``p1``).

    ``cube_blunders`` and ``cube_errors`` come from the export's marks
    (:func:`~bot.gnubg.decisions.cube_marks`): the statistics count no marks of cube decisions,
    only the missed and wrong doubles, takes and passes, marked or not (what ``cube_errors``
    None counts instead)."""
    lines = _statistics_lines(text)
    player_line = next((rest for (_, label), rest in lines.items() if label == "Player"), None)
    if player_line is None or _words(player_line) != GNUBG_NAMES:
        raise AnalysisTextError("no 'Player p0 p1' line: not gnubg's match statistics")

    def get(section: str, label: str, *, always: bool = True) -> str:
        """A line's figures; gnubg leaves the luck and rating lines out of a match in which
        nobody made a move (ended by a resignation, a claim or the clock at once)."""
        try:
            return lines[(section, label)]
        except KeyError:
            if not always:
                return "  "
            raise AnalysisTextError(f"no {label!r} in gnubg's {section} statistics") from None

    unforced = _counts(get("chequerplay", "Unforced moves"))
    bad = _counts(get("chequerplay", "Moves marked bad"))
    very_bad = _counts(get("chequerplay", "Moves marked very bad"))
    checker_rate = _floats(get("chequerplay", "Error rate mEMG"))
    close_cube = _counts(get("cube", "Close or actual cube decisions"))
    cube_error_kinds = [
        _counts(get("cube", label))
        for label in (
            "Missed doubles below CP",
            "Missed doubles above CP",
            "Wrong doubles below DP",
            "Wrong doubles above TG",
            "Wrong takes",
            "Wrong passes",
        )
    ]
    cube_rate = _floats(get("cube", "Error rate mEMG"))
    total = _floats(get("overall", "Error total EMG"))
    rate = _floats(get("overall", "Error rate mEMG"))
    luck_total = _floats(get("luck", "Luck total EMG", always=False))
    luck_rate = _floats(get("luck", "Luck rate mEMG", always=False))
    # Only for a match whose last game was played out (not one claimed or lost on time).
    adjusted_line = lines.get(("overall", "Luck adjusted result"))
    adjusted = None if adjusted_line is None else _floats(adjusted_line)
    rating = _words(get("overall", "Overall rating", always=False))
    players = []
    for side in (0, 1):
        decisions = unforced[side] + close_cube[side]
        players.append(
            PlayerAnalysis(
                name=names[side],
                checker_decisions=unforced[side],
                checker_errors=bad[side] + very_bad[side],
                checker_blunders=very_bad[side],
                checker_error_rate=abs(checker_rate[side]),
                cube_decisions=close_cube[side],
                cube_errors=(
                    sum(kind[side] for kind in cube_error_kinds)
                    if cube_errors is None
                    else cube_errors[side]
                ),
                cube_blunders=cube_blunders[side],
                cube_error_rate=abs(cube_rate[side]),
                error_rate=abs(rate[side]),
                pr=500 * abs(total[side]) / decisions if decisions else 0.0,
                luck_rate=luck_rate[side],
                luck_total=luck_total[side],
                luck_adjusted=None if adjusted is None else adjusted[side],
                rating=rating[side],
            )
        )
    return players[0], players[1]


# -- export match text --------------------------------------------------------------------------

_MOVE_HEADER = re.compile(r"^Move number (\d+):\s+(p[01]) (.*)$")
_CANDIDATE = re.compile(
    r"^(\*)?\s*(?:\d+\.|\?\?)\s+(?:Cubeful|Cubeless)\s+\d+-ply\s+(.+?)\s+(?:Eq\.|MWC):\s+"
    r"([+-]?\s*\d+\.\d+)%?(?:\s+\(\s*([+-]?\d+\.\d+)%?\))?"
)
CUBE_LINE = re.compile(r"^\d\.\s+(.+?)\s{2,}([+-]?\s*\d+\.\d+)%?")
DECIDER = re.compile(r"^\* p[01] (\w+)")
_ALERT = re.compile(r"^Alert: (.+?) \(\s*([+-]?\d+\.\d+)%?\)")


def read_number(text: str) -> float:
    return float(text.replace(" ", ""))


@dataclass(frozen=True, slots=True)
class Decision:
    """One of gnubg's move records read from the export, the facts the results need."""

    game: int
    move: int
    player: int
    kind: str  # "checker" (a roll played, maybe a cube decision before it), "double", "answer"
    gnubg_id: str
    dice: tuple[int, int] | None
    played: str | None  # the play made (None: no legal play, or a cube block)
    best: str | None
    checker_cost: float  # EMG lost by the play
    checker_blunder: bool
    cube_action: str | None  # "No double", "Double", "Take", "Pass"... when gnubg judged it wrong
    cube_best: str | None
    cube_cost: float
    cube_blunder: bool
    chance: float | None  # the decider's chances after it: win (money) or MWC, 0..1

    @property
    def blunder(self) -> bool:
        return self.checker_blunder or self.cube_blunder


def split_blocks(text: str) -> list[tuple[re.Match[str], list[str]]]:
    blocks: list[tuple[re.Match[str], list[str]]] = []
    for line in text.splitlines():
        header = _MOVE_HEADER.match(line)
        if header:
            blocks.append((header, []))
        elif blocks:
            blocks[-1][1].append(line)
    return blocks


def proper_action(proper: str, doubler: bool, beavers: bool) -> str:
    """The decider's half of gnubg's proper cube action ("No double, take": "No double" for
    the player on roll, "Take" for the opponent). gnubg says "beaver" whatever the rules: where
    beavers are off, that is a take."""
    first, _, second = proper.partition(", ")
    if doubler:
        return first
    action = second.capitalize()
    return action if beavers or action != "Beaver" else "Take"


def without_dice(gnubg_id: str) -> str:
    position, _, match = gnubg_id.partition(":")
    fields = decode_match_id(match)
    return f"{position}:{encode_match_id(replace(fields, dice=(0, 0)))}"


def _read_block(
    game: int,
    header: re.Match[str],
    lines: list[str],
    money: bool,
    beavers: bool,
    chances: list[str] | None,
    doubled: dict[str, float],
) -> Decision | None:
    move, player, rest = int(header.group(1)), int(header.group(2)[1]), header.group(3)
    if rest.startswith("to play"):
        kind = "checker"
    elif rest.startswith("on roll, cube decision"):
        kind = "double"
    elif rest.startswith("doubles to"):
        kind = "answer"
        player = 1 - player  # the header names the doubler; the opponent decides
    else:  # a resignation and the like: no decision gnubg analysed
        return None
    position = match_id = ""
    played = best = proper = verb = None
    checker_cost = cube_cost = 0.0
    checker_blunder = cube_blunder = False
    cube_alert = None
    played_probability: float | None = None
    cube_probability: float | None = None
    for index, line in enumerate(lines):
        after = lines[index + 1] if index + 1 < len(lines) else ""
        if "Position ID:" in line:
            position = line.split("Position ID:")[1].strip()
        elif "Match ID   :" in line:
            match_id = line.split(":")[1].strip()
        elif found := DECIDER.match(line):
            verb = found.group(1)
        elif found := _CANDIDATE.match(line):
            if best is None:
                best = found.group(2)
            if found.group(1):
                played = found.group(2)
                checker_cost = abs(read_number(found.group(4))) if found.group(4) else 0.0
                played_probability = _first_float(after)
        elif line.startswith("Proper cube action:"):
            proper = re.sub(r"\s*\(.*\)\s*$", "", line.split(":", 1)[1].strip())
        elif "cubeless" in line and cube_probability is None:
            cube_probability = _first_float(after)
        elif found := _ALERT.match(line):
            what = found.group(1)
            if what.endswith("move"):
                checker_blunder = what == "very bad move"
            elif not what.endswith("roll!"):
                cube_alert = what
                cube_cost = abs(float(found.group(2)))
                cube_blunder = after.strip() == "[very bad]"
    if not position or not match_id:
        raise AnalysisTextError(f"move {move} of game {game} has no Position ID and Match ID")
    gnubg_id = f"{position}:{match_id}"
    dice = decode_match_id(match_id).dice
    cube_action = cube_best = None
    if cube_alert is not None and proper is not None:
        redouble = "edouble" in proper
        cube_best = proper_action(proper, kind != "answer", beavers)
        if kind == "checker":
            cube_action = "No redouble" if redouble else "No double"
        elif kind == "answer":
            cube_action = {"rejects": "Pass", "beavers": "Beaver"}.get(verb or "", "Take")
        else:
            cube_action = "Redouble" if redouble else "Double"
    chance = _chance(kind, verb, money, played_probability, cube_probability, chances, doubled)
    return Decision(
        game=game,
        move=move,
        player=player,
        kind=kind,
        gnubg_id=without_dice(gnubg_id) if kind == "checker" and played is None else gnubg_id,
        dice=dice if kind == "checker" and dice[0] else None,
        played=played,
        best=best if played else None,
        checker_cost=checker_cost,
        checker_blunder=checker_blunder,
        cube_action=cube_action,
        cube_best=cube_best,
        cube_cost=cube_cost,
        cube_blunder=cube_blunder,
        chance=chance,
    )


def _first_float(line: str) -> float | None:
    found = _NUMBER.search(line)
    return float(found.group()) if found else None


def _mwc_cube(lines: Iterable[str]) -> dict[str, float]:
    """{"no double" | "double, take" | "double, pass": MWC 0..1} of a block's cube analysis."""
    cube: dict[str, float] = {}
    for line in lines:
        if found := CUBE_LINE.match(line):
            cube[found.group(1).lower().replace("redouble", "double")] = (
                read_number(found.group(2)) / 100
            )
    return cube


def _chance(
    kind: str,
    verb: str | None,
    money: bool,
    played_probability: float | None,
    cube_probability: float | None,
    mwc_lines: list[str] | None,
    doubled: dict[str, float],
) -> float | None:
    """The decider's chances after the decision, 0..1: money, their cubeless chance to win the
    game; match play, their cubeful match winning chance (from the MWC export of the block).

    For the answer to a double, gnubg's MWC export prints nonsense (a take worth -22.94%), so
    those chances come from the double's block (``doubled``), from the doubler's side."""
    if money:
        if kind == "checker":
            return played_probability
        if kind == "answer" and verb == "rejects":
            return 0.0
        return cube_probability
    if mwc_lines is None:
        return None
    if kind == "checker":
        for line in mwc_lines:
            if (found := _CANDIDATE.match(line)) and found.group(1):
                return read_number(found.group(3)) / 100
        return None
    cube = _mwc_cube(mwc_lines) if kind == "double" else doubled
    take, drop = cube.get("double, take"), cube.get("double, pass")
    if take is None or drop is None:
        return None
    if kind == "double":  # what the double is worth against the best answer
        return min(take, drop)
    return 1 - (drop if verb == "rejects" else take)


def parse_export(
    games: Sequence[str],
    *,
    money: bool,
    beavers: bool = False,
    mwc_games: Sequence[str] | None = None,
) -> list[Decision]:
    """The decisions in ``export match text`` (one text per game, in order). ``mwc_games`` is
    the same export with ``set output mwc on``, for the chances in match play; ``beavers``:
    the money game allowed them."""
    if not money and mwc_games is not None and len(mwc_games) != len(games):
        raise AnalysisTextError(f"{len(games)} games exported but {len(mwc_games)} with MWC")
    decisions = []
    for number, text in enumerate(games, start=1):
        mwc_blocks: dict[int, list[str]] = {}
        if not money and mwc_games is not None:
            mwc_blocks = {
                int(header.group(1)): lines for header, lines in split_blocks(mwc_games[number - 1])
            }
        doubled: dict[str, float] = {}  # the last double's cube analysis, in MWC
        for header, lines in split_blocks(text):
            mwc = mwc_blocks.get(int(header.group(1))) if mwc_games is not None else None
            decision = _read_block(number, header, lines, money, beavers, mwc, doubled)
            if decision is not None:
                decisions.append(decision)
                if decision.kind == "double" and mwc is not None:
                    doubled = _mwc_cube(mwc)
    return decisions


def mistakes(decisions: Iterable[Decision]) -> list[Mistake]:
    """Every decision that lost equity, checker plays and cube actions apart."""
    found = []
    for d in decisions:
        if d.played is not None and d.best is not None and d.checker_cost > 0:
            found.append(
                Mistake(
                    d.player,
                    d.game,
                    d.move,
                    "checker",
                    d.gnubg_id,
                    d.dice,
                    d.played,
                    d.best,
                    d.checker_cost,
                )
            )
        if d.cube_action is not None and d.cube_best is not None and d.cube_cost > 0:
            before_roll = without_dice(d.gnubg_id) if d.kind == "checker" else d.gnubg_id
            found.append(
                Mistake(
                    d.player,
                    d.game,
                    d.move,
                    "cube",
                    before_roll,
                    None,
                    d.cube_action,
                    d.cube_best,
                    d.cube_cost,
                )
            )
    return found


def worst(
    decisions: Iterable[Decision], count: int = 3
) -> tuple[tuple[Mistake, ...], tuple[Mistake, ...]]:
    """Each player's ``count`` costliest decisions, costliest first (the earlier on a tie)."""
    found = mistakes(decisions)
    return tuple(  # type: ignore[return-value]
        tuple(sorted((m for m in found if m.player == side), key=lambda m: -m.cost)[:count])
        for side in (0, 1)
    )


def chart(decisions: Iterable[Decision]) -> tuple[ChartPoint, ...]:
    """Player 0's chances after each decision that has them, blunders marked."""
    return tuple(
        ChartPoint(d.game, d.player, d.chance if d.player == 0 else 1 - d.chance, d.blunder, d.move)
        for d in decisions
        if d.chance is not None
    )
