"""The engines: everything that plays games (no pandas in the jitted parts)."""
