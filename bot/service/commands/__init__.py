"""The table's commands: the registry every front end is built from, the typed line read into a
call, help, the channel locks, rate limits, and the commands that only look. Uses the other
rooms; of it, they use only a rate (challenges), the help's words (unknown commands) and the
autocomplete's choices (drills)."""
