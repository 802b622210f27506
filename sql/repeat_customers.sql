-- name: repeat_customers
-- description: Customers with 2+ orders in the period: count, share of customers and of revenue
--   (excl. cancelled/returned).
-- tables: orders
-- param period: period | YYYY-MM-DD..YYYY-MM-DD, inclusive.
-- returns: object
WITH per_customer AS (
    SELECT
        customer_id,
        count(*) AS orders,
        coalesce(sum(amount) FILTER (WHERE status NOT IN ('cancelled', 'returned')), 0) AS revenue
    FROM orders
    WHERE day BETWEEN $period_start AND $period_end
    GROUP BY customer_id
)
SELECT
    count(*) AS customers,
    count(*) FILTER (WHERE orders >= 2) AS repeat_customers,
    round(100.0 * count(*) FILTER (WHERE orders >= 2) / nullif(count(*), 0), 1) AS repeat_pct,
    coalesce(sum(revenue), 0) AS revenue,
    coalesce(sum(revenue) FILTER (WHERE orders >= 2), 0) AS repeat_revenue,
    round(100.0 * sum(revenue) FILTER (WHERE orders >= 2) / nullif(sum(revenue), 0), 1) AS repeat_revenue_pct
FROM per_customer
