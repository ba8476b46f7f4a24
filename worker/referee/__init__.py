"""The referee: plays match specs through the engine and the bots, without Django."""
