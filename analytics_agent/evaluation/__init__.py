"""The ``eval`` front door: run a question set through the real loop and report right, grounded answers.

cases (question files) -> runner (through workspace assembly, concurrently) -> scoring (pure) ->
report (tables, JSON, comparison) and store (runs kept in the data folder); command ties them together.
"""
