"""Puzzles: ``!puzzle``, rated, from the starter pool and a server's analysed matches."""
