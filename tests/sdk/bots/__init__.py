"""Hostile and broken bot folders for ``durak check`` and the referee (see tests/sdk/test_check.py).

Bots that fault "once" leave a marker file in their working folder (their own folder when
served), so a check restarts them only once; the tests run copies of these folders.
"""
