"""The Discord layer: cogs, views, reply formatting, the error tree. Thin: it calls the service."""
