-- name: customer_summary
-- description: One customer: orders, revenue (excl. cancelled/returned), first/last order, cities,
--   favourite category.
-- tables: customers, orders, order_items, products
-- param customer_id: string | E.g. "C-00042".
-- returns: object
-- empty: no customer with id {customer_id}
SELECT
    c.customer_id, c.name, c.city AS home_city, c.segment,
    count(o.order_id) AS orders,
    coalesce(sum(o.amount) FILTER (WHERE o.status NOT IN ('cancelled', 'returned')), 0) AS revenue,
    min(o.day) AS first_order,
    max(o.day) AS last_order,
    coalesce(list_sort(list(DISTINCT o.city) FILTER (WHERE o.city IS NOT NULL)), []) AS cities,
    (SELECT p.category
     FROM orders o2 JOIN order_items i USING (order_id) JOIN products p USING (product_id)
     WHERE o2.customer_id = c.customer_id AND o2.status NOT IN ('cancelled', 'returned')
     GROUP BY p.category
     ORDER BY sum(i.quantity) DESC, p.category
     LIMIT 1) AS favourite_category
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id
WHERE c.customer_id = $customer_id
GROUP BY c.customer_id, c.name, c.city, c.segment
