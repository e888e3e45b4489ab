"""Discord without Discord: the bot's own CommandTree fed real gateway payloads, every REST call captured."""
