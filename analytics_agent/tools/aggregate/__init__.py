"""The aggregate tool: arguments, references, conditions, time, planning and SQL."""
