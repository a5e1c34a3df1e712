"""Reading GNU Backgammon's analysis text: ``show statistics match`` and ``export match text``.

Pure functions over captured text, so they run (and are tested) without gnubg. The worker renames
the players ``p0`` and ``p1`` before it captures anything, so a name never has to be told apart
from the text around it: the real names come from the ``.mat`` file (:func:`mat_names`).

The export is read block by block ("Move number N: ..."): a checker play (with the cube decision
before its roll, when there was one), a double, or the answer to one. Equities are EMG; match
play is exported a second time with ``set output mwc on`` to read the match winning chances the
chart shows.

Two readings: :func:`parse_export` takes the facts the figures, the worst mistakes and the chart
need; :func:`review` takes every decision in full for the review and drills
(:class:`~bot.gnubg.decisions.ReviewedDecision`: gnubg's candidate plays with their depth,
equity and difference, its cube figures and verdict, the roll's luck, its marks "doubtful",
"bad" and "very bad", which 1.1.0a16 gives past 0.03, 0.06 and 0.12 EMG lost; see that module).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from bot.gnubg.api import ChartPoint, Mistake, PlayerAnalysis
from bot.gnubg.decisions import Candidate, CubeFigures, ReviewedDecision, checker_decision
from bot.rules.matchid import GAME_NONE, GAME_PLAYING, decode_match_id, encode_match_id

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
_CUBE_LINE = re.compile(r"^\d\.\s+(.+?)\s{2,}([+-]?\s*\d+\.\d+)%?")
_DECIDER = re.compile(r"^\* p[01] (\w+)")
_ALERT = re.compile(r"^Alert: (.+?) \(\s*([+-]?\d+\.\d+)%?\)")


def _number(text: str) -> float:
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


def _split_blocks(text: str) -> list[tuple[re.Match[str], list[str]]]:
    blocks: list[tuple[re.Match[str], list[str]]] = []
    for line in text.splitlines():
        header = _MOVE_HEADER.match(line)
        if header:
            blocks.append((header, []))
        elif blocks:
            blocks[-1][1].append(line)
    return blocks


def _proper_action(proper: str, doubler: bool, beavers: bool) -> str:
    """The decider's half of gnubg's proper cube action ("No double, take": "No double" for
    the player on roll, "Take" for the opponent). gnubg says "beaver" whatever the rules: where
    beavers are off, that is a take."""
    first, _, second = proper.partition(", ")
    if doubler:
        return first
    action = second.capitalize()
    return action if beavers or action != "Beaver" else "Take"


def _without_dice(gnubg_id: str) -> str:
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
        elif found := _DECIDER.match(line):
            verb = found.group(1)
        elif found := _CANDIDATE.match(line):
            if best is None:
                best = found.group(2)
            if found.group(1):
                played = found.group(2)
                checker_cost = abs(_number(found.group(4))) if found.group(4) else 0.0
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
        cube_best = _proper_action(proper, kind != "answer", beavers)
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
        gnubg_id=_without_dice(gnubg_id) if kind == "checker" and played is None else gnubg_id,
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
        if found := _CUBE_LINE.match(line):
            cube[found.group(1).lower().replace("redouble", "double")] = (
                _number(found.group(2)) / 100
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
                return _number(found.group(3)) / 100
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
                int(header.group(1)): lines
                for header, lines in _split_blocks(mwc_games[number - 1])
            }
        doubled: dict[str, float] = {}  # the last double's cube analysis, in MWC
        for header, lines in _split_blocks(text):
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
            before_roll = _without_dice(d.gnubg_id) if d.kind == "checker" else d.gnubg_id
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


# -- every decision, for the review ---------------------------------------------------------------

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
        elif found := _DECIDER.match(line):
            block.verb = found.group(1)
        elif found := _LISTED.match(line):
            block.listed.append(
                _Listed(
                    played=bool(found.group(1)),
                    rank=int(found.group(2)) if found.group(2) else None,
                    cubeful=found.group(3) == "Cubeful",
                    plies=int(found.group(4)),
                    play=found.group(5),
                    value=_number(found.group(6)),
                    difference=float(found.group(7)) if found.group(7) else 0.0,
                )
            )
        elif found := _CUBE_LINE.match(line):
            block.cube_figures[found.group(1).lower()] = _number(found.group(2))
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
        found.append(
            judged.cube_decision(player, "cube", _without_dice(emg.gnubg_id), cube, action)
        )
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
            best=_proper_action(cube.proper, kind == "cube", self.beavers),
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
                for header, lines in _split_blocks(mwc_games[number - 1])
            }
        doubled: _Block | None = None  # the MWC block of the last double (the doubler's side)
        for header, lines in _split_blocks(text):
            mwc = None if money or mwc_games is None else mwc_blocks.get(int(header.group(1)))
            if mwc is None and not money and mwc_games is not None:
                raise AnalysisTextError(f"move {header.group(1)} of game {number} has no MWC")
            emg = _read(lines)
            decisions.extend(_reviewed(number, header, emg, mwc, doubled, beavers, every_play))
            if header.group(3).startswith("on roll, cube decision"):
                doubled = mwc
    return decisions
