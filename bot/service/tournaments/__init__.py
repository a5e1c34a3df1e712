"""The tournament room: knockout, Swiss and round-robin tournaments run by the bot, from sign-up
to the final report (:mod:`bot.service.tournaments.room`)."""
