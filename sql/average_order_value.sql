-- name: average_order_value
-- description: Average order value (excl. cancelled/returned) per city or channel and overall, in a
--   date range.
-- tables: orders
-- param start: date | First day.
-- param end: date | Last day.
-- param by: enum(city, channel) = city | Group by.
-- returns: rows
WITH paid AS (
    SELECT CASE WHEN $by = 'channel' THEN channel ELSE city END AS grp, amount
    FROM orders
    WHERE day BETWEEN $start AND (CASE WHEN $start > $end THEN error('start must be on or before end') ELSE $end END)
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
