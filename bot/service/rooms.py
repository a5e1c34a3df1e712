"""The service's rooms, built once and wired together: :func:`build_rooms` makes the frozen
:class:`Rooms` that :class:`~bot.service.table.TableService` dispatches to.

The order of construction is the order of dependence: the match repository and the images
first, the rooms that play and show matches, the engine's rooms, what follows a match's end
(:class:`~bot.service.endings.Endings`), then the dispatcher of what follows each command
(:class:`~bot.service.commands.guard.Aftermath`) and the lock keeper
(:class:`~bot.service.commands.guard.Guard`) the command handlers run under.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.gnubg.api import Engine
from bot.service.commands.guard import Aftermath, Guard, PlaceLocks
from bot.service.commands.registry import COMMANDS
from bot.service.commands.server import ServerCommands
from bot.service.commands.views import Views
from bot.service.endings import Endings, Summaries
from bot.service.gnubg.analysis import Analyses
from bot.service.gnubg.budget import EngineBudget, EngineRequests
from bot.service.gnubg.coach import Coach
from bot.service.gnubg.commands import EngineCommands
from bot.service.gnubg.opponent import Opponent
from bot.service.gnubg.positions import Positions
from bot.service.matches.admin import Administration
from bot.service.matches.announcements import Announcements
from bot.service.matches.challenges import Challenges
from bot.service.matches.commands import MatchCommands, Play
from bot.service.matches.deadlines import Deadlines
from bot.service.matches.presentation import BoardImages
from bot.service.matches.rematch import Rematches
from bot.service.matches.repository import Repository
from bot.service.matches.threads import MatchThreads
from bot.service.puzzles.commands import PuzzleCommands
from bot.service.puzzles.room import PuzzleRoom
from bot.service.records.dice import DiceFactory
from bot.service.review.commands import ReviewCommands
from bot.service.review.drills import Drills
from bot.service.review.room import Reviews
from bot.service.tournaments.commands import TournamentCommands
from bot.service.tournaments.room import Tournaments
from bot.service.tournaments.rounds import Rounds
from bot.settings import Settings
from bot.store import Store


@dataclass(frozen=True, slots=True)
class Rooms:
    """Every room of the service, each built once. The five ``*commands`` rooms (and
    ``server``) hold the handlers the registry names; the others are what they work with."""

    repository: Repository
    images: BoardImages
    threads: MatchThreads
    challenges: Challenges
    playing: Play
    admin: Administration
    views: Views
    analyses: Analyses
    positions: Positions
    rounds: Rounds
    endings: Endings
    opponent: Opponent
    coach: Coach
    rematches: Rematches
    reviews: Reviews
    drills: Drills
    tournaments: Tournaments
    aftermath: Aftermath
    guard: Guard
    deadlines: Deadlines
    announcements: Announcements
    engine_requests: EngineRequests
    matches: MatchCommands
    gnubg: EngineCommands
    tournament_commands: TournamentCommands
    review_commands: ReviewCommands
    server: ServerCommands
    puzzles: PuzzleCommands

    def close(self) -> None:
        self.analyses.close()
        self.opponent.close()
        self.images.close()


def build_rooms(
    store: Store,
    settings: Settings,
    *,
    engine: Engine,
    clock: Callable[[], float],
    dice: DiceFactory,
    dice_key: bytes | None,
    images: bool,
    budget: EngineBudget,
    locks: PlaceLocks,
) -> Rooms:
    """The rooms over ``store`` and ``engine``, sharing ``locks`` (each channel's)."""
    locked = locks.held
    engine_requests = EngineRequests(budget, settings.engine_workers)
    repository = Repository(store, settings, clock, dice_key=dice_key)
    board_images = BoardImages(enabled=images)
    threads = MatchThreads(store.matches, repository, settings)
    challenges = Challenges(store, repository, board_images, settings, clock, dice, threads)
    playing = Play(repository, board_images, settings)
    admin = Administration(store, repository, settings, clock, engine)
    views = Views(store, repository, board_images, challenges, settings, clock, COMMANDS)
    analyses = Analyses(store, repository, engine, settings, clock, budget, charts=images)
    positions = Positions(engine, board_images)
    rounds = Rounds(store, repository, board_images, settings, clock, dice, locked, draw=images)
    endings = Endings(Summaries(store, repository, settings), threads, analyses, rounds, repository)
    opponent = Opponent(
        engine, repository, challenges, board_images, settings, dice, locked, budget, endings
    )
    coach = Coach(engine, repository, settings, locked)
    rematches = Rematches(repository, challenges, opponent, settings)
    reviews = Reviews(store.matches, store.analyses, repository, settings, draw=images)
    drills = Drills(store, repository, engine, settings, clock, draw=images)
    tournaments = Tournaments(store, settings, clock, rounds, draw=images)
    # What follows each command at a table, in one order (see bot.service.commands.guard).
    aftermath = Aftermath(coach, opponent, endings, board_images, repository)
    guard = Guard(locks, repository, views, aftermath, engine_requests)
    return Rooms(
        repository=repository,
        images=board_images,
        threads=threads,
        challenges=challenges,
        playing=playing,
        admin=admin,
        views=views,
        analyses=analyses,
        positions=positions,
        rounds=rounds,
        endings=endings,
        opponent=opponent,
        coach=coach,
        rematches=rematches,
        reviews=reviews,
        drills=drills,
        tournaments=tournaments,
        aftermath=aftermath,
        guard=guard,
        deadlines=Deadlines(store, repository, settings, clock, guard.guarded),
        announcements=Announcements(store, repository, board_images, settings, clock, locked),
        engine_requests=engine_requests,
        matches=MatchCommands(
            guard, repository, challenges, playing, admin, views, opponent, rematches
        ),
        gnubg=EngineCommands(guard, coach, positions, analyses),
        tournament_commands=TournamentCommands(tournaments, repository),
        review_commands=ReviewCommands(guard, reviews, drills, repository),
        server=ServerCommands(
            views, store, repository.languages, prefix=settings.command_prefix, clock=clock
        ),
        puzzles=PuzzleCommands(
            PuzzleRoom(store, board_images, settings, clock, repository.languages),
            repository.forget,
        ),
    )
