"""A match's life: challenges, play, the cube, rematches, clocks and deadlines, threads, the
moderators' void, the repository that reads and writes matches, and everything a match says.
Uses records, the rules, the store and the renderer; a rematch against the bot, the opponent."""
