"""GNU Backgammon's own ``hint``, the oracle of ``test_advice_gnubg``: run in a process of its
own (gnubg's state is process-wide), with the settings the bot's workers use."""

from __future__ import annotations

PLIES = 2  # !eval and !hint think at 2-ply


def hint(
    position: str, *, count: int = 5, jacoby: bool | None = None, own_filters: bool = False
) -> str:
    """gnubg's own ``hint`` text for a pasted XGID or gnubg ID, at 2-ply with pruning; plays:
    with ``own_filters`` by gnubg's default move filters (the hint's first play is its first),
    else the top ``count`` by the 0-ply ranking re-scored at 2-ply (the hint's fillers)."""
    import gnubg

    from bot.gnubg.capture import captured_output
    from tests.gnubg.cases import gnubg_default_filters

    with captured_output() as out:
        gnubg.command("set threads 1")
        gnubg.command("set beavers 0")
        gnubg.command(f"set jacoby {'on' if jacoby else 'off'}")
        for kind in ("chequerplay", "cubedecision"):
            gnubg.command(f"set evaluation {kind} evaluation plies {PLIES}")
            gnubg.command(f"set evaluation {kind} evaluation prune on")
            gnubg.command(f"set evaluation {kind} evaluation noise 0")
        gnubg.command("set cache 65536")
        if position.startswith("XGID="):
            gnubg.command(f"set xgid {position}")
        else:
            gnubg.set_gnubg_id(position)
        # The filter last, after the settings, as the bot's workers set it.
        gnubg.set_eval_hint_filter(
            gnubg_default_filters()
            if own_filters
            else [
                {
                    "ply": PLIES,
                    "level": level,
                    "acceptmoves": count,
                    "extramoves": 0,
                    "threshold": 0.0,
                }
                for level in range(PLIES)
            ]
        )
        gnubg.command(f"hint {count}")
    return out.text
