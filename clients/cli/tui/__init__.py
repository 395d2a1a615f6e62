"""The Textual terminal client of `cardavia play`: lobby, tables for the four games, summaries.

Rendering and move choice are plain functions of the views and legal lists the
server sends (``names``, ``moves``, ``tables/``), so they are tested without a
terminal; the screens only wire them to keys and to a session.
"""
