"""What is kept and counted: ratings, dice (sources, the server's key, statistics), names, the
stored form of a match, durations as text. Uses only the rules and the store."""
