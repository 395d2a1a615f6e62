"""Game engines: pure, deterministic state machines with one contract.

This layer imports nothing else of Cardavia's. See ``engine.py`` for the
contract and ``registry.py`` for the list of games.
"""
