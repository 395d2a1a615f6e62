"""Cardavia: an open-source server for online card games.

The code lives in the top-level folders ``games``, ``bots``, ``protocol``,
``server`` and ``clients``, installed as ``cardavia.games`` and so on.
"""

__version__ = "0.1.0"
