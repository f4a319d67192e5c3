"""Members' armed standing orders in SQL (issue 31), shared by both backends.

A table's armed orders are one JSON text in its row (``games.orders_json``; what it
holds is tables/core/standing.py's), with the earliest time a delayed step of one
of them falls due (``games.orders_due``, indexed: the scheduler's ``due_tables``
reads it).  They change in two ways, each a compare-and-swap on the text as read,
so two processes never apply one order twice and an arming is never lost:

* with a turn (:class:`OrdersChange` in :class:`~store.rows.GameChange`): an order
  fired, used up or lapsed, in the same commit as the steps it took;
* on their own (:meth:`SqlOrders.set_orders`): a member arms or disarms one while the
  table stands still; the table's version does not move (a version is a step others
  see: their buttons would go stale, telling them an order exists).
"""

from __future__ import annotations

from .rows import OrdersChange
from .sql import Conn, SqlBase, fl

#: the SET and WHERE parts of an update of a ``games`` row's orders
SET_ORDERS = "orders_json=?, orders_due=?"
SAME_ORDERS = "orders_json IS NOT DISTINCT FROM ?"


class SqlOrders(SqlBase):
    """The standing-orders part of the SQL store."""

    async def set_orders(self, game_id: int, expected_version: int, change: OrdersChange) -> bool:
        """Replace a running table's armed orders while it is at ``expected_version``
        and its orders are still ``change.expected`` (its version stays); False, and
        nothing written, otherwise."""
        sql = f"UPDATE games SET {SET_ORDERS} WHERE id=? AND version=? AND status='active' AND {SAME_ORDERS}"
        args = [change.orders, fl(change.due), game_id, expected_version, change.expected]

        async def tx(db: Conn) -> bool:
            return 1 == await db.execute(sql, args)

        return await self._tx(tx)
