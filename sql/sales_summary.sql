-- name: sales_summary
-- description: One city's results on one day: number of orders, orders by status, and revenue (sum of
--   amount over orders neither cancelled nor returned). Use for "how did Pune do on 2026-10-24?". Not for
--   date ranges (use revenue_trend) or for comparing cities (use city_ranking).
-- tables: orders
-- param city: enum(from orders.city) | City, e.g. "Pune".
-- param day: date | Day as YYYY-MM-DD, e.g. "2026-10-24".
-- returns: object
SELECT
    $city AS city,
    $day AS day,
    coalesce(sum(n), 0) AS orders,
    coalesce(map_from_entries(list_sort(list((status, n)) FILTER (WHERE status IS NOT NULL))), MAP {}) AS by_status,
    coalesce(sum(revenue), 0) AS revenue
FROM (
    SELECT status, count(*) AS n,
           sum(amount) FILTER (WHERE status NOT IN ('cancelled', 'returned')) AS revenue
    FROM orders
    WHERE city = $city AND day = $day
    GROUP BY status
)
