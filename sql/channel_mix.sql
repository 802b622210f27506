-- name: channel_mix
-- description: Orders and revenue (excl. cancelled/returned) per channel, with shares, in a date range.
-- tables: orders
-- param start: date | First day.
-- param end: date | Last day.
-- returns: rows
WITH per_channel AS (
    SELECT
        channel,
        count(*) AS orders,
        coalesce(sum(amount) FILTER (WHERE status NOT IN ('cancelled', 'returned')), 0) AS revenue
    FROM orders
    WHERE day BETWEEN $start AND (CASE WHEN $start > $end THEN error('start must be on or before end') ELSE $end END)
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
