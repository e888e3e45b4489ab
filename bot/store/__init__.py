"""Persistence: typed models, the database engine, and the unit of work."""
