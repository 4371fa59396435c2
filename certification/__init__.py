"""certification package."""
