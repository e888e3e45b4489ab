"""Pure rules: no I/O, no asyncio, no Discord, no SQL, no global random."""
