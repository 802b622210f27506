"""The command line front door. ``app.py`` holds the Typer app and registers each command module."""
