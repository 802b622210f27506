-- name: average_order_value
-- description: Average order value (excl. cancelled/returned) per city or channel, and overall.
-- tables: orders
-- param period: period | YYYY-MM-DD..YYYY-MM-DD, inclusive.
-- param by: enum(city, channel) = city | Group by.
-- returns: rows
WITH paid AS (
    SELECT CASE WHEN $by = 'channel' THEN channel ELSE city END AS grp, amount
    FROM orders
    WHERE day BETWEEN $period_start AND $period_end
        AND status NOT IN ('cancelled', 'returned')
)
SELECT
    coalesce(grp, 'All') AS "group",
    count(*) AS orders,
    sum(amount) AS revenue,
    CAST(round(avg(amount)) AS BIGINT) AS avg_order_value
FROM paid
GROUP BY GROUPING SETS ((grp), ())
ORDER BY grouping(grp) DESC, avg_order_value DESC, "group"
