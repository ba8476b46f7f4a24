"""``manage.py catalogs [--compile] [--check]``: build the translation catalogs, or fail when they are stale."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from arena.ops.messages import compile_catalogs, stale


class Command(BaseCommand):
    help = "Compile arena/locale (--compile) and check that makemessages would add or drop nothing (--check)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--compile", action="store_true", help="build the .mo files from the .po files")
        parser.add_argument("--check", action="store_true", help="fail when the catalogs lag behind the code")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["compile"]:
            compile_catalogs()
        if options["check"]:
            problems = stale()
            if problems:
                raise CommandError("the translation catalogs are out of date (run makemessages "
                                   "--no-location --no-obsolete, then translate):\n" + "\n".join(problems))
            self.stdout.write("the translation catalogs match the code")
