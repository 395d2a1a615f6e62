"""AI players. Bots see only a seat's view and its legal actions, never the engine state."""
