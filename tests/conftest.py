"""The benchmark scripts under ``bench/`` are programs, not test modules: pytest (with ``--doctest-modules``)
leaves them alone, and ``bench/test_smoke.py`` runs each of them as a subprocess, the way a person runs them.

This lives here rather than in ``bench/`` so that every file in ``bench/`` is a benchmark or its test.
"""

from pathlib import Path

collect_ignore = [f"bench/{path.name}" for path in (Path(__file__).parent / "bench").glob("*.py")
                  if not path.name.startswith("test_")]
