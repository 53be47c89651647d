"""Persistence behind one small interface (storage.base.Store); SQLite is the default."""
