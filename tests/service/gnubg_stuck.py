"""A stand-in for a worker function that hangs inside a gnubg worker (pickled by name, so it
lives outside the test module): the real hang the pool's timeout must end."""

from __future__ import annotations

import time
from typing import Any


def choose_play_for_ever(*args: Any) -> None:
    time.sleep(3600)
