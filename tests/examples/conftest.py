"""The examples run against the same live server the server tests use."""

from tests.server.conftest import config, server

__all__ = ["config", "server"]
