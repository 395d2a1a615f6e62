"""The network clients run against the same live in-process server the server tests use."""

from tests.server.conftest import config, server, url

__all__ = ["config", "server", "url"]
