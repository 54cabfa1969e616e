"""Test-only support code (never shipped in /play)."""
