"""Llamas Unleashed: our own 128-card set and a pure rules engine (RULES.md: Llamas Unleashed)."""
