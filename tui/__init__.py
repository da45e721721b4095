"""The Textual terminal client."""
