"""What the service says: events, prompts and status messages, the score, the end of a match,
the leaderboard and stats, and the data and keys adapters read.

Pure functions of engine values and stored rows, except :func:`status_reply`, which also asks
the board images for the picture.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from bot.gnubg.api import LEVEL_NAMES
from bot.i18n import play as say
from bot.rules.events import (
    Beavered,
    Doubled,
    Dropped,
    Event,
    GameOver,
    GameStarted,
    MatchOver,
    Moved,
    OpeningRoll,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    Took,
)
from bot.rules.match import Match
from bot.rules.notation import normalise_typed
from bot.rules.options import DEFAULT_AUTOMATIC_DOUBLES, MAX_CUBE
from bot.rules.text import dice_text, level_text, points_text
from bot.service.keys import Key, MatchKey, RematchKey
from bot.service.matches.timers import clock_line, clock_reading
from bot.service.models import (
    ENGINE_ID,
    Decision,
    MatchEnded,
    Pending,
    Reply,
    Table,
    engine_seat_of,
)
from bot.service.records.names import markdown_safe as md
from bot.store import PlayerRow
from bot.store.players import LevelRecord, MatchCounts

if TYPE_CHECKING:
    from bot.service.matches.images import BoardImages


def match_kind(length: int) -> str:
    return say.MONEY_GAME() if length == 0 else say.POINT_MATCH(length)


def options_text(options: dict[str, Any]) -> str:
    """`` (Jacoby, beavers)`` for the money-game options that are on, else nothing."""
    names = [
        label for key, label in (("jacoby", "Jacoby"), ("beavers", "beavers")) if options.get(key)
    ]
    auto = options.get("automatic_doubles")
    if auto:
        most = DEFAULT_AUTOMATIC_DOUBLES if auto is True else int(auto)
        names.append(f"automatic doubles, at most {most} per game")
    return f" ({', '.join(names)})" if names else ""


def score_text(match: Match, names: tuple[str, str]) -> str:
    first, second = names
    a, b = match.score
    if match.length == 0:
        return say.SCORE_MONEY(first=first, a=a, second=second, b=b)
    text = say.SCORE_MATCH(first=first, a=a, second=second, b=b, length=match.length)
    if match.crawford:
        text += say.SCORE_CRAWFORD()
    elif match.post_crawford:
        text += say.SCORE_POST_CRAWFORD()
    return text


def describe(event: Event, names: tuple[str, str], *, money: bool = False) -> str | None:
    """One line for an event, or None for events the board and prompt already say.

    ``money``: the event is from a money game, which has no match score to speak of."""
    if isinstance(event, GameStarted):
        if event.game == 1:
            return None
        crawford = say.CRAWFORD_NO_DOUBLING() if event.crawford else ""
        return say.GAME_AT(game=event.game, a=event.score[0], b=event.score[1], crawford=crawford)
    if isinstance(event, OpeningRoll):
        first, second = event.dice
        rolls = say.OPENING_ROLLS(first=names[0], a=first, second=names[1], b=second)
        if event.winner is None:
            cube = say.CUBE_TURNS(cube=event.cube) if event.automatic_double else ""
            return say.OPENING_TIE(rolls=rolls, cube=cube)
        high, low = max(event.dice), min(event.dice)
        return say.OPENING_WINNER(rolls=rolls, winner=names[event.winner], high=high, low=low)
    if isinstance(event, Rolled):
        return say.ROLLS(who=names[event.player], dice=dice_text(event.dice))
    if isinstance(event, Moved):
        who = names[event.player]
        if event.no_legal_move:
            return say.CANT_MOVE(who=who, dice=dice_text(event.dice))
        forced = say.FORCED() if event.forced else ""
        return say.PLAYS(who=who, dice=dice_text(event.dice), play=event.play, forced=forced)
    if isinstance(event, Doubled):
        return say.DOUBLES(who=names[event.player], cube=event.cube)
    if isinstance(event, Took):
        return say.TAKES(who=names[event.player], cube=event.cube)
    if isinstance(event, Beavered):
        return say.BEAVERS(who=names[event.player], cube=event.cube)
    if isinstance(event, Dropped):
        return say.DROPS(who=names[event.player])
    if isinstance(event, ResignationOffered):
        return say.OFFERS_TO_RESIGN(
            who=names[event.player],
            level=level_text(event.level),
            points=points_text(event.points),
        )
    if isinstance(event, ResignationAccepted):
        return say.ACCEPTS_RESIGNATION(who=names[event.player])
    if isinstance(event, ResignationRejected):
        return say.REJECTS_RESIGNATION(who=names[event.player])
    if isinstance(event, GameOver):
        jacoby = say.JACOBY_NOTE() if event.jacoby else ""
        score = (
            ""
            if money
            else say.SCORE_AFTER(
                first=names[0], a=event.score[0], second=names[1], b=event.score[1]
            )
        )
        return say.WINS[event.result](
            winner=names[event.winner],
            points=points_text(event.points),
            jacoby=jacoby,
            score=score,
        )
    if isinstance(event, MatchOver):
        return None  # the prompt of the finished match says who won it (prompt_text)
    return None


# -- a match as it stands ----------------------------------------------------------------------


def clock_now(table: Table, now: float | None = None) -> str | None:
    """The line that shows a clocked match's banks at ``now`` (None: as the decision under way
    began, i.e. just after the last action); None for a match without a clock."""
    timer = table.timer
    if timer is None:
        return None
    reading = clock_reading(timer, table.match, timer.turn_started_at if now is None else now)
    return None if reading is None else clock_line(table.names, reading)


async def status_reply(
    table: Table,
    events: Iterable[Event],
    prefix: str,
    images: BoardImages,
    *,
    lead: str = "",
    now: float | None = None,
) -> Reply:
    """The message after a change: what happened, the board, who must do what now (and the
    clock, read at ``now``: None, just after the change)."""
    match, names = table.match, table.names
    lines = [lead] if lead else []
    money = match.length == 0
    lines += [text for text in (describe(e, names, money=money) for e in events) if text]
    prompt, decision = prompt_text(table, prefix)
    lines.append(prompt)
    clock = clock_now(table, now)
    if clock is not None:
        lines.append(clock)
    turn = match.turn
    ids = table.row.player_ids
    viewer = turn if turn is not None else match.winner
    engine = engine_seat_of(ids)
    if engine is not None:  # a game against the bot: always the person's side, never the bot asked
        viewer = 1 - engine
        turn = turn if turn == viewer else None
    asked = ids[turn] if turn is not None and decision else None
    key: Key | None = match_key(table) if decision else None
    if decision is Decision.REMATCH:
        asked, key = rematch_asked(table), RematchKey(table.row.id)
    return Reply(
        "\n".join(lines),
        image=await images.board(table, viewer, now),
        mention=(ids[turn],) if turn is not None else (),
        decision=decision,
        decision_for=asked,
        decision_key=key,
        money_game=match.length == 0 and match.options.beavers,
        board_viewer=viewer if viewer is not None else match.on_roll,
        announces=(table.row.id, table.row.version),
        ended=MatchEnded(table) if table.row.status == "finished" else None,
    )


def play_form(command: str, prefix: str) -> str:
    """How a play is typed, never a play itself (the first legal one, often a poor one, reads
    as advice): ``!move <from>/<to> …`` and where the legal plays are listed."""
    return say.PLAY_FORM(prefix=prefix, command=command)


def prompt_text(table: Table, prefix: str) -> tuple[str, Decision | None]:
    """Who must do what now, and the question it asks them (if buttons can answer it)."""
    match, names, p = table.match, table.names, prefix
    if match.phase == "over":
        winner = match.winner
        assert winner is not None
        if match.length == 0:
            won = points_text(match.score[winner])
            result = say.WINS_MONEY_GAME(winner=names[winner], won=won)
        else:
            result = say.WINS_MATCH(
                winner=names[winner],
                kind=match_kind(match.length),
                a=match.score[winner],
                b=match.score[1 - winner],
            )
        return say.EXPORT_HINT(result=result, prefix=p), Decision.REMATCH
    turn = match.turn
    assert turn is not None
    who = names[turn]
    if table.row.player_ids[turn] == ENGINE_ID:
        return say.THINKING(who=who), None
    if match.phase == "roll":
        return say.ROLL_OR_DOUBLE(who=who, prefix=p), Decision.TURN
    if match.phase == "move":
        assert match.dice is not None
        form = play_form("move", p)
        return say.TO_MOVE(who=who, dice=dice_text(match.dice), form=form), None
    if match.phase == "doubled":
        cube = match.offered_cube
        assert cube is not None
        if match.length == 0 and match.options.beavers and cube * 2 <= MAX_CUBE:
            text = say.TAKE_DROP_OR_BEAVER(who=who, prefix=p, cube=cube, beaver=cube * 2)
            return text, Decision.DOUBLE
        return say.TAKE_OR_DROP(who=who, prefix=p, cube=cube), Decision.DOUBLE
    return say.ACCEPT_OR_REJECT(who=who, prefix=p), Decision.RESIGNATION


def ending_text(table: Table) -> str:
    """How a match that is no longer played ended."""
    names, row = table.names, table.row
    if row.status == "aborted":
        how = {"voided": "voided by a moderator", "unreadable": "void (its record was damaged)"}
        return (
            f"The match between {names[0]} and {names[1]} was "
            f"{how.get(row.ending or '', 'aborted')} (unrated)."
        )
    if row.ending == "claimed" and row.winner is not None:
        return f"{names[row.winner]} won the match by claim (the opponent timed out)."
    if row.winner is not None and table.match.length == 0:
        won = points_text(table.match.score[row.winner])
        return f"{names[row.winner]} won the money game: {won}."
    if row.winner is not None:
        return f"{names[row.winner]} won the match."
    return "The match is over."


def ended_reply(table: Table, text: str) -> Reply:
    """The message of a match that ended without a last play (a claim, a clock run out):
    ``text``, and the rematch question a played-out match ends with (``table`` as it now
    stands, its winner stored)."""
    return Reply(
        text,
        decision=Decision.REMATCH,
        decision_for=rematch_asked(table),
        decision_key=RematchKey(table.row.id),
        announces=(table.row.id, table.row.version),
        ended=MatchEnded(table) if table.row.status == "finished" else None,
    )


def lead_text(names: tuple[str, str], pips: tuple[int, int]) -> str:
    """Who leads the race: fewer pips is ahead."""
    if pips[0] == pips[1]:
        return say.EVEN()
    ahead = 0 if pips[0] < pips[1] else 1
    return say.LEADS_BY(name=names[ahead], pips=abs(pips[0] - pips[1]))


def text_board(table: Table, viewer: int) -> str:
    """The ASCII board from ``viewer``'s side, with who is who."""
    match, names = table.match, table.plain
    position = match.position if viewer == match.on_roll else match.position.swapped()
    return f"{position}\n X = {names[viewer]}, O = {names[1 - viewer]}"


def game_data(table: Table) -> dict[str, Any]:
    match, names, row = table.match, table.plain, table.row
    turn = match.turn
    position = match.position if turn in (None, match.on_roll) else match.position.swapped()
    phase = match.phase
    winner = match.winner
    if row.status == "aborted":
        phase, turn = "over", None
    elif row.status == "finished":
        phase, turn, winner = "over", None, row.winner
    return {
        "players": list(names),
        "match_length": match.length,
        "score": list(match.score),
        "crawford": match.crawford,
        "game_number": match.game_number,
        "phase": phase,
        "turn": names[turn] if turn is not None else None,
        "dice": list(match.dice) if match.dice else None,
        "cube": match.cube_value,
        "cube_owner": names[match.cube_owner] if match.cube_owner is not None else None,
        "position_id": position.position_id(),
        "match_id": match.match_id(),
        "winner": names[winner] if winner is not None else None,
    }


def match_key(table: Table) -> MatchKey:
    """The key of the decision a match waits on (see :class:`Pending`)."""
    return MatchKey(table.row.id, table.match.action_count)


def rematch_asked(table: Table) -> str:
    """Who a finished match's Rematch button asks: the loser (it is their revenge), or the
    person in a game against the bot. Either player may answer it."""
    ids = table.row.player_ids
    engine = engine_seat_of(ids)
    if engine is not None:
        return ids[1 - engine]
    winner = table.row.winner if table.row.winner is not None else table.match.winner
    return ids[1 - winner] if winner is not None else ids[0]


# -- the server --------------------------------------------------------------------------------


def leaderboard_text(
    top: list[PlayerRow], asker: str, rank: tuple[int, int] | None, prefix: str
) -> str:
    """The top of the ladder, and where ``asker`` stands (``rank``: place and of how many)."""
    if not top:
        return f"No rated matches on this server yet: `{prefix}challenge @user` to play one."
    lines = ["**Leaderboard** (FIBS ratings)"]
    for place, player in enumerate(top, start=1):
        lines.append(
            f"{place}. {md(player.name)} {player.rating:.1f} "
            f"({player.wins} won, {player.losses} lost)"
        )
    if rank is None:
        lines.append(f"{md(asker)}: not ranked yet (finish a rated match).")
    else:
        lines.append(f"{md(asker)}: #{rank[0]} of {rank[1]}.")
    return "\n".join(lines)


def stats_text(player: PlayerRow, rank: tuple[int, int] | None, counts: MatchCounts) -> str:
    ranked = f"#{rank[0]} of {rank[1]}" if rank else "unranked"
    return (
        f"{md(player.name)}: rating {player.rating:.1f} ({ranked}), experience "
        f"{player.experience}; rated matches {player.wins} won, {player.losses} "
        f"lost; {counts.playing} playing, {counts.aborted} aborted."
    )


def engine_record_text(records: list[LevelRecord], user_id: str) -> str:
    """`` Against GNU Backgammon: expert 1-3, ...`` (won-lost, by level), or nothing."""
    if not records:
        return ""
    order = {name: index for index, name in enumerate(LEVEL_NAMES)}
    ranked = sorted(records, key=lambda record: order.get(record.level, len(order)))
    counts = ", ".join(f"{r.level} {r.wins}-{r.losses}" for r in ranked)
    if user_id == ENGINE_ID:
        return f" By level (won-lost): {counts}."
    return f" Against GNU Backgammon (won-lost): {counts}."


# -- what people type --------------------------------------------------------------------------


def typed(text: str) -> str:
    """What a player typed, as the bot reads it: the engine's :func:`normalise_typed` (full-width
    digits and slashes become ASCII ones), trimmed."""
    return normalise_typed(text).strip()


_DECISIONS = {"roll": Decision.TURN, "doubled": Decision.DOUBLE, "resigned": Decision.RESIGNATION}


def table_pending(table: Table) -> Pending | None:
    """The question the match being played at ``table`` waits on, or None."""
    match = table.match
    turn = match.turn
    if turn is None or match.phase not in _DECISIONS or table.row.player_ids[turn] == ENGINE_ID:
        return None
    ids = table.row.player_ids
    return Pending(_DECISIONS[match.phase], ids[turn], table.names[turn], match_key(table))
