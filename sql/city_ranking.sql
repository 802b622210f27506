-- name: city_ranking
-- description: Cities ranked by revenue (excl. cancelled/returned), with orders, share, average order value.
-- tables: orders
-- param period: period | YYYY-MM-DD..YYYY-MM-DD, inclusive.
-- returns: rows
WITH per_city AS (
    SELECT
        city,
        count(*) AS orders,
        coalesce(sum(amount) FILTER (WHERE status NOT IN ('cancelled', 'returned')), 0) AS revenue,
        count(*) FILTER (WHERE status NOT IN ('cancelled', 'returned')) AS paid_orders
    FROM orders
    WHERE day BETWEEN $period_start AND $period_end
    GROUP BY city
)
SELECT
    CAST(rank() OVER (ORDER BY revenue DESC) AS INTEGER) AS rank,
    city,
    orders,
    revenue,
    round(100.0 * revenue / nullif(sum(revenue) OVER (), 0), 1) AS revenue_pct,
    CAST(round(revenue / nullif(paid_orders, 0)) AS BIGINT) AS avg_order_value
FROM per_city
ORDER BY rank, city
