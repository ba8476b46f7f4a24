"""The benchmark scripts are programs, not test modules: pytest (with ``--doctest-modules``) leaves them alone.

``test_smoke.py`` runs each of them as a subprocess instead, the way a person runs them.
"""

from pathlib import Path

collect_ignore = [path.name for path in Path(__file__).parent.glob("*.py")
                  if not path.name.startswith(("test_", "conftest"))]
