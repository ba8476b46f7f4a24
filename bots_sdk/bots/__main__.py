"""``python -m bots_sdk.bots NAME``: serve reference bot NAME on ``$DURAK_BOT_ADDRESS``.

The lean way to start a reference bot as its own process: it imports only the
server and the bots, not the whole ``durak`` command, so SERVING comes sooner.
"""

from __future__ import annotations

import sys

from bots_sdk.bots import REFERENCE_BOTS, make_bot
from bots_sdk.server import serve

if len(sys.argv) != 2 or sys.argv[1] not in REFERENCE_BOTS:
    sys.exit(f"usage: python -m bots_sdk.bots NAME (one of {', '.join(sorted(REFERENCE_BOTS))})")
serve(make_bot(sys.argv[1]))
