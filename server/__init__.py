"""The asyncio WebSocket server: a thin shell around authoritative rooms."""
