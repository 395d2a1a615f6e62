"""The wire protocol, sans-I/O: encoding, decoding, validation and deltas.

Never imports asyncio, websockets or redis (an import-linter contract checks).
"""
