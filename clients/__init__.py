"""Network clients: the terminal client, headless bots and the bot SDK."""
