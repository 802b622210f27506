-- name: category_mix
-- description: Units, revenue (excl. cancelled/returned) and revenue share % per category.
-- tables: orders, order_items, products
-- param period: period | YYYY-MM-DD..YYYY-MM-DD, inclusive.
-- returns: rows
WITH per_category AS (
    SELECT p.category, sum(i.quantity) AS units, sum(i.quantity * i.unit_price) AS revenue
    FROM orders o
    JOIN order_items i USING (order_id)
    JOIN products p USING (product_id)
    WHERE o.day BETWEEN $period_start AND $period_end
        AND o.status NOT IN ('cancelled', 'returned')
    GROUP BY p.category
)
SELECT category, units, revenue, round(100.0 * revenue / nullif(sum(revenue) OVER (), 0), 1) AS revenue_pct
FROM per_category
ORDER BY revenue DESC, category
