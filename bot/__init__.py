"""A backgammon bot for Discord whose rules agree with GNU Backgammon."""
