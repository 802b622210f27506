"""What the model is told ``aggregate`` does, apart from the tool: ``tools list`` and the registry show it
without importing the planner (``aggregate`` itself is built on first use)."""

DESCRIPTION = (
    "Metrics by group_by (column, rel.col or rel.rel2.col, date_col.grain, dimension, days(d1 - d0)), "
    "time_grain. A related row counts once per group (each_row: per table row). Metric where "
    '"x > 15", "x > y", "days(d1 - d0) > 3": own condition; pct: % meeting it of rows where known; '
    "share: % of total (of its time bucket if grouped too); per: divided by that output (same fn and "
    'column: %, x_pct_of_y); column "a - b", "a, b", "hours(d1 - d0)" (days/months/years); expr '
    '"sum(a*b)/sum(b)". Output name: as, else fn_column (count_if_x/pct_x with where; _2 if repeated). '
    "Filter on an output keeps groups. period 'YYYY-MM-DD..YYYY-MM-DD' vs baseline (same form) or "
    "'previous' (last bucket with rows). order_by output, '-' desc. Max 6 metrics, 8 group_by, 8 "
    "filters, 50 list values; where 500, expr 300 chars."
)
