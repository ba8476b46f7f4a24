"""Game analysis: the exact endgame solver and the per-decision verdicts of ``durak analyze``.

``solver`` holds the search that the ``strong`` bot runs on perfect-information positions; ``review``
walks a game record and rates every decision with it (or, while cards are hidden, with sampled deals).
"""
