"""Durak Arena SDK: the rules engine, the bot base class and the durak command."""
