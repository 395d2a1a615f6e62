"""The terminal client."""
