-- name: channel_mix
-- description: Orders and revenue (excl. cancelled/returned) per channel, with shares.
-- tables: orders
-- param period: period | YYYY-MM-DD..YYYY-MM-DD, inclusive.
-- returns: rows
WITH per_channel AS (
    SELECT
        channel,
        count(*) AS orders,
        coalesce(sum(amount) FILTER (WHERE status NOT IN ('cancelled', 'returned')), 0) AS revenue
    FROM orders
    WHERE day BETWEEN $period_start AND $period_end
    GROUP BY channel
)
SELECT
    channel,
    orders,
    round(100.0 * orders / sum(orders) OVER (), 1) AS orders_pct,
    revenue,
    round(100.0 * revenue / nullif(sum(revenue) OVER (), 0), 1) AS revenue_pct
FROM per_channel
ORDER BY revenue DESC, channel
