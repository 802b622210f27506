"""What the model is told ``aggregate`` does, apart from the tool: ``tools list`` and the registry show it
without importing the planner (``aggregate`` itself is built on first use)."""

DESCRIPTION = (
    "Metrics by group_by (column, relation.column, date_col.grain, dimension), time_grain. Metric where "
    '"x > 15": own condition; pct: % of rows meeting it; share: % of total; per: divided by that output. '
    "Filter on an output (fn_column) keeps groups. period vs baseline or 'previous' bucket. "
    "order_by output, '-' desc."
)
