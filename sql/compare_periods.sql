-- name: compare_periods
-- description: Two date ranges compared: orders, revenue (excl. cancelled/returned), average order
--   value, customers, cancelled %, and the changes.
-- tables: orders
-- param start: date | First day.
-- param end: date | Last day.
-- param base_start: date | Baseline first day.
-- param base_end: date | Baseline last day.
-- returns: rows
WITH tagged AS (
    SELECT
        day BETWEEN $start AND (CASE WHEN $start > $end THEN error('start must be on or before end') ELSE $end END) AS p,
        day BETWEEN $base_start AND (CASE WHEN $base_start > $base_end THEN error('base_start must be on or before base_end') ELSE $base_end END) AS b,
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
