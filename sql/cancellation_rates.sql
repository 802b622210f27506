-- name: cancellation_rates
-- description: Cancelled and returned orders, count and %, per city and overall.
-- tables: orders
-- param period: period | YYYY-MM-DD..YYYY-MM-DD, inclusive.
-- returns: rows
SELECT
    coalesce(city, 'All') AS city,
    count(*) AS orders,
    count(*) FILTER (WHERE status = 'cancelled') AS cancelled,
    round(100.0 * count(*) FILTER (WHERE status = 'cancelled') / count(*), 1) AS cancelled_pct,
    count(*) FILTER (WHERE status = 'returned') AS returned,
    round(100.0 * count(*) FILTER (WHERE status = 'returned') / count(*), 1) AS returned_pct
FROM orders
WHERE day BETWEEN $period_start AND $period_end
GROUP BY GROUPING SETS ((city), ())
ORDER BY grouping(city) DESC, cancelled_pct DESC, city
