-- name: compare_periods
-- description: A period against a baseline: orders, revenue (excl. cancelled/returned), average order
--   value, customers, cancelled %, and the changes.
-- tables: orders
-- param period: period | YYYY-MM-DD..YYYY-MM-DD, inclusive.
-- param baseline: period | Compared with; YYYY-MM-DD..YYYY-MM-DD.
-- returns: rows
WITH tagged AS (
    SELECT
        day BETWEEN $period_start AND $period_end AS p,
        day BETWEEN $baseline_start AND $baseline_end AS b,
        customer_id,
        amount,
        status NOT IN ('cancelled', 'returned') AS paid,
        status = 'cancelled' AS cancelled
    FROM orders

),
m AS (
    SELECT
        count(*) FILTER (WHERE p) AS p_orders,
        count(*) FILTER (WHERE b) AS b_orders,
        coalesce(sum(amount) FILTER (WHERE p AND paid), 0) AS p_revenue,
        coalesce(sum(amount) FILTER (WHERE b AND paid), 0) AS b_revenue,
        round(avg(amount) FILTER (WHERE p AND paid)) AS p_aov,
        round(avg(amount) FILTER (WHERE b AND paid)) AS b_aov,
        count(DISTINCT customer_id) FILTER (WHERE p) AS p_customers,
        count(DISTINCT customer_id) FILTER (WHERE b) AS b_customers,
        round(100.0 * count(*) FILTER (WHERE p AND cancelled) / nullif(p_orders, 0), 1) AS p_cancelled,
        round(100.0 * count(*) FILTER (WHERE b AND cancelled) / nullif(b_orders, 0), 1) AS b_cancelled
    FROM tagged
)
SELECT metric, period, baseline, period - baseline AS change,
    round(100.0 * (period - baseline) / nullif(baseline, 0), 1) AS change_pct
FROM m, LATERAL (VALUES
    (1, 'orders', p_orders, b_orders),
    (2, 'revenue', p_revenue, b_revenue),
    (3, 'avg_order_value', p_aov, b_aov),
    (4, 'customers', p_customers, b_customers),
    (5, 'cancelled_pct', p_cancelled, b_cancelled)
) AS r(k, metric, period, baseline)
ORDER BY k
