"""What the model is told ``aggregate`` does, apart from the tool: ``tools list`` and the registry show it
without importing the planner (``aggregate`` itself is built on first use)."""

DESCRIPTION = (
    "Metrics by group_by (column, rel.col, rel.rel2.col..., date_col.grain, dimension, days(d1 - d0)), "
    "time_grain. Related rows count once per group (each_row: per row). joins: a missing link, to: "
    "table.key. Filter column = a linking table, is_null: rows with none. "
    'Metric where "x > 15", "x > y", "days(d1 - d0) > 3": own condition; pct: % meeting it of rows where '
    "known; share: % of total (per time bucket if grouped too); per: divided by that output (same fn "
    'and column: a %); column "a - b", "a, b", "hours(d1 - d0)" (days/months/years); expr '
    '"sum(a*b)/sum(b)". Output name: as, else fn_column. Filter on an output keeps groups. period '
    "'YYYY-MM-DD..YYYY-MM-DD' vs baseline or 'previous' (last bucket with rows). order_by output, '-' "
    "desc. Max 6 metrics, 8 group_by, 8 filters, 50 list values; where 500, expr 300 chars."
)
