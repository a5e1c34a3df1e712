"""GNU Backgammon's services to players: the opponent, the coach (hints, the tutor), pasted
positions, match analysis, and each user's fair share of its time. Uses matches and records; the
engine itself runs behind :mod:`bot.gnubg.api`, in worker processes."""
