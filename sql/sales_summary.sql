-- name: sales_summary
-- description: One city on one day: orders, orders by status, and revenue (excl. cancelled/returned).
-- tables: orders
-- param city: enum(from orders.city) | City.
-- param day: date | Day.
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
