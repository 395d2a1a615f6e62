"""What the tests share: live servers and their settings, test clients, ports, Redis keys and a
Redis Cluster, waiting on a condition, a clock a test moves by hand, and a person at a browser
page.

Fixtures stay in the ``conftest.py`` files (pytest finds them there; the one exception is
``redis_cluster``, imported into ``tests/conftest.py`` from the module that starts it); everything a test
imports by name lives here, in a module named for what it holds, so that no test reaches
into another folder's ``conftest.py`` or into another test module.
"""
