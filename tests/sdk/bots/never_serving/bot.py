"""Never starts a server: it sleeps until it is killed."""

from __future__ import annotations

import time

if __name__ == "__main__":
    while True:
        time.sleep(60)
