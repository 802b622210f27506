-- name: store_overview
-- description: Totals of all data: first/last order day, orders, revenue (excl. cancelled/returned),
--   customers, cities, products. Call first to learn the dates.
-- tables: orders, customers, products
-- returns: object
SELECT
    min(day) AS first_day,
    max(day) AS last_day,
    count(*) AS orders,
    coalesce(sum(amount) FILTER (WHERE status NOT IN ('cancelled', 'returned')), 0) AS revenue,
    count(DISTINCT customer_id) AS ordering_customers,
    (SELECT count(*) FROM customers) AS customers,
    list_sort(list(DISTINCT city)) AS cities,
    (SELECT count(*) FROM products) AS products,
    (SELECT list_sort(list(DISTINCT category)) FROM products) AS categories
FROM orders
