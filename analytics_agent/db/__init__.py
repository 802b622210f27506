"""The database: sandboxed read connections for tools, short-lived write connections for seeding and loading."""
