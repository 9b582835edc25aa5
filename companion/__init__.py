"""Companion: table-side referee and scorekeeper for French card games."""
