-- name: top_products
-- description: Top products by revenue or units; cancelled/returned orders excluded.
-- tables: orders, order_items, products
-- param period: period | YYYY-MM-DD..YYYY-MM-DD, inclusive.
-- param by: enum(revenue, units) = revenue | Rank by.
-- param top: integer(1, 25) = 10 | How many.
-- returns: rows
WITH sold AS (
    SELECT p.name AS product, p.category, sum(i.quantity) AS units, sum(i.quantity * i.unit_price) AS revenue
    FROM orders o
    JOIN order_items i USING (order_id)
    JOIN products p USING (product_id)
    WHERE o.day BETWEEN $period_start AND $period_end
        AND o.status NOT IN ('cancelled', 'returned')
    GROUP BY p.product_id, p.name, p.category
)
SELECT
    CAST(row_number() OVER (ORDER BY CASE WHEN $by = 'units' THEN units ELSE revenue END DESC, product) AS INTEGER) AS rank,
    product, category, units, revenue
FROM sold
QUALIFY rank <= $top
ORDER BY rank
