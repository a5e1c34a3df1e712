"""The rules of backgammon as GNU Backgammon has them: pure values, no I/O."""

from __future__ import annotations

from bot.engine.dice import (
    DiceExhaustedError,
    DiceSource,
    ScriptedDice,
    VerifiableDice,
    derive_die,
    dice_from_data,
    dice_sequence,
    verify_seed,
)
from bot.engine.errors import (
    AmbiguousMoveError,
    IllegalActionError,
    IllegalMoveError,
    InvalidMoveError,
    MatchError,
    MatchOverError,
    MoveError,
    NotYourTurnError,
)
from bot.engine.events import (
    Action,
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
from bot.engine.match import Match
from bot.engine.matchid import MatchIdFields, decode_match_id, encode_match_id
from bot.engine.options import (
    DEFAULT_AUTOMATIC_DOUBLES,
    MAX_AUTOMATIC_DOUBLES,
    MatchOptions,
    MatchOptionsError,
)
from bot.engine.position import Play, Position

__all__ = [
    "DEFAULT_AUTOMATIC_DOUBLES",
    "MAX_AUTOMATIC_DOUBLES",
    "Action",
    "AmbiguousMoveError",
    "Beavered",
    "DiceExhaustedError",
    "DiceSource",
    "Doubled",
    "Dropped",
    "Event",
    "GameOver",
    "GameStarted",
    "IllegalActionError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Match",
    "MatchError",
    "MatchIdFields",
    "MatchOptions",
    "MatchOptionsError",
    "MatchOver",
    "MatchOverError",
    "MoveError",
    "Moved",
    "NotYourTurnError",
    "OpeningRoll",
    "Play",
    "Position",
    "ResignationAccepted",
    "ResignationOffered",
    "ResignationRejected",
    "Rolled",
    "ScriptedDice",
    "Took",
    "VerifiableDice",
    "decode_match_id",
    "derive_die",
    "dice_from_data",
    "dice_sequence",
    "encode_match_id",
    "verify_seed",
]
