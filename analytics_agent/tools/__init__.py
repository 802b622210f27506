"""Tools: SQL-file and generic tools behind one registry, and an executor that never raises."""
