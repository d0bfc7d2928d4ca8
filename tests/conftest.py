"""Shared pytest set-up."""
