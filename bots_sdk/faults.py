"""``BotFault``: how a bot failed the contract, as the reason a game record stores."""

from __future__ import annotations

from bots_sdk.engine import Reason


class BotFault(Exception):
    """A bot failed the contract (timeout, crash, protocol); ``reason`` is the record's forfeit reason."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail
