"""``python -m bot`` runs the Discord bot; ``python -m bot console`` the terminal table;
``python -m bot copy-db SOURCE DEST`` copies a database into a new one (e.g. into PostgreSQL);
``python -m bot puzzles build ...`` builds a pool of puzzles from gnubg self-play."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "console":
        from bot.console import main as console_main

        return console_main(args[1:])
    if args and args[0] == "puzzles":
        from bot.gnubg.puzzles import main as puzzles_main

        return puzzles_main(args[1:])
    if args and args[0] == "copy-db":
        from bot.copy_db import main as copy_main

        return copy_main(args[1:])
    from bot.discord_main import main as discord_main

    return discord_main(args)


if __name__ == "__main__":
    sys.exit(main())
