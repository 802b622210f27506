-- name: get_order
-- description: One order: city, day, status, amount, items.
-- tables: orders, order_items, products
-- param order_id: pattern(^[A-Z]-[0-9]{4,}$) | E.g. "A-1042".
-- returns: object
-- empty: no order with id {order_id}
SELECT
    o.order_id, o.city, o.day, o.status, o.amount,
    (SELECT list({'product': p.name, 'quantity': i.quantity, 'unit_price': i.unit_price} ORDER BY p.name)
     FROM order_items i JOIN products p USING (product_id)
     WHERE i.order_id = o.order_id) AS items
FROM orders o
WHERE o.order_id = $order_id
