"""What the model is told ``aggregate`` does, apart from the tool: ``tools list`` and the registry show it
without importing the planner (``aggregate`` itself is built on first use)."""

DESCRIPTION = (
    "Metrics by group_by (column, relation.column, date_col.grain, dimension), time_grain. Metric where "
    '"x > 15" or "x > y": own condition; pct: % meeting it of rows where it is known; share: % of total, or of its time bucket (adds name_share[_in_bucket]); per: divided by that output; '
    'column "a - b" or "a, b"; expr "sum(a*b)/sum(b)". Output name: as, else fn_column (count_if_x/pct_x '
    "with where; _2 if repeated). Filter on an output keeps groups. period 'YYYY-MM-DD..YYYY-MM-DD' vs "
    "baseline (same form) or 'previous' (last bucket with rows). "
    "order_by output, '-' desc."
)
