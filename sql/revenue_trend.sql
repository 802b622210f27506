-- name: revenue_trend
-- description: Orders and revenue (excl. cancelled/returned) per day, week or month (day: at most 50
--   days).
-- tables: orders
-- param period: period | YYYY-MM-DD..YYYY-MM-DD, inclusive.
-- param grain: enum(day, week, month) = month | Weeks start Monday.
-- returns: rows
SELECT
    CAST(date_trunc($grain, day) AS DATE) AS period,
    count(*) AS orders,
    coalesce(sum(amount) FILTER (WHERE status NOT IN ('cancelled', 'returned')), 0) AS revenue
FROM orders
WHERE day BETWEEN $period_start AND (CASE
        WHEN $grain = 'day' AND $period_end - $period_start >= 50 THEN error('grain day allows at most 50 days, use week or month')
        ELSE $period_end END)
GROUP BY period
ORDER BY period
