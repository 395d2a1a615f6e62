"""What the tests share: live servers and their settings, test clients, ports, Redis keys,
waiting on a condition, a clock a test moves by hand, and a person at a browser page.

Fixtures stay in the ``conftest.py`` files (pytest finds them there); everything a test
imports by name lives here, in a module named for what it holds, so that no test reaches
into another folder's ``conftest.py`` or into another test module.
"""
