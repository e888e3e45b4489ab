"""Herald's Discord-facing and process-facing code. Thin: the rules live in engine/."""
