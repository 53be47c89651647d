"""One cog per game, the generic table cog and rules help."""
