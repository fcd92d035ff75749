"""Thin Flask blueprints: web pages and htmx fragments, and the JSON API v1."""
