"""``manage.py check_services [--sandbox]``: the database and the broker answer (and the sandbox works).

Exit 0 when all is well; otherwise one line per problem saying which service and how to fix it, exit 1.
Compose runs it before the web server and the workers start.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from arena.ops.checks import check_broker, check_database, check_sandbox


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sandbox", action="store_true", help="also self-test the bot sandbox (worker hosts)")

    def handle(self, *args: Any, **options: Any) -> None:
        checks = {"database": check_database, "broker": check_broker}
        if options["sandbox"]:
            checks["sandbox"] = check_sandbox
        problems = [f"{name}: {problem}" for name, check in checks.items() if (problem := check()) is not None]
        if problems:
            raise CommandError("\n".join(problems))
        self.stdout.write(f"ok: {', '.join(checks)}")
