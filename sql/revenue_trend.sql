-- name: revenue_trend
-- description: Orders and revenue (excl. cancelled/returned) per day, week or month in a date range
--   (day: at most 50 days).
-- tables: orders
-- param start: date | First day.
-- param end: date | Last day.
-- param grain: enum(day, week, month) = month | Weeks start Monday.
-- returns: rows
SELECT
    CAST(date_trunc($grain, day) AS DATE) AS period,
    count(*) AS orders,
    coalesce(sum(amount) FILTER (WHERE status NOT IN ('cancelled', 'returned')), 0) AS revenue
FROM orders
WHERE day BETWEEN $start AND (CASE
        WHEN $start > $end THEN error('start must be on or before end')
        WHEN $grain = 'day' AND $end - $start >= 50 THEN error('grain day allows at most 50 days, use week or month')
        ELSE $end END)
GROUP BY period
ORDER BY period
