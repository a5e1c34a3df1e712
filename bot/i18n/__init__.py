"""The catalog of what the bot says, in English and the languages it speaks: see
docs/translating.md."""
