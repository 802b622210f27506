"""What the model is told ``aggregate`` does, apart from the tool: ``tools list`` and the registry show it
without importing the planner (``aggregate`` itself is built on first use). Output columns name what the
description leaves out: name_share_in_<bucket>, x_pct_of_y (a per that is a percent), name_unknown."""

DESCRIPTION = (
    "Metrics by group_by (column, rel.col, rel.rel2.col..., date_col.grain, dimension), time_grain. A "
    "related row counts once per group (each_row: per table row); joins: a missing link, to: table.key; "
    "filter column=linking table, is_null: rows with none. "
    'Metric where "x > 15" or "x > y": own condition; pct: % of known rows meeting it; share: % of total '
    'or of its time bucket; per: divided by that output; column "a - b", "a, b" or days(d1 - d0) (hours/'
    'months/years; also in where, group_by); expr "sum(a*b)/sum(b)". Output name: as, else fn_column. '
    "Filter on an output keeps groups. period "
    "'YYYY-MM-DD..YYYY-MM-DD' vs baseline (same form) or 'previous' (last bucket with rows). order_by "
    "output, '-' desc. metrics [] lists groups. Max 6 metrics, 8 group_by, 8 filters, 4 joins, 50 list values."
)
