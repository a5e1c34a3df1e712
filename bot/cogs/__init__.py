"""The Discord adapter: cogs, buttons and replies over the table service."""
