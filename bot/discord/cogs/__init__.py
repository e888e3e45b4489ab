"""One cog per command group."""
