"""The arena's worker side: referee, sandbox backends and bot builds (no Django here, see docs/architecture.md)."""
