"""The application: a command from a user at a table -> rules, store, render -> replies.

:class:`~bot.service.table.TableService` is the facade both front ends call; the work is done in
rooms by concern: ``commands`` (the registry, reading a typed line, help, locks, rate limits, what
a command looks at), ``matches`` (a match's flow and what it says), ``gnubg`` (GNU Backgammon as
opponent, coach and analyst) and ``records`` (ratings, dice, names, the stored form of a match).
Knows nothing of discord.py.
"""
