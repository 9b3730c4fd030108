"""Frontdesk: grounded, guarded AI assistants on LangGraph, offline by default."""

__version__ = "0.1.0"
