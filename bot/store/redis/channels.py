"""The chats' channels (`bot.store.feed`, the Mini App's live views): each
save publishes its new version on the chat's channel, and a process
subscribes with `Channels.pubsub` — on a cluster, on one node of its own."""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import ConnectionPool

from bot.store.redis.base import RedisBase


class Channels(RedisBase):
    """The chats' channels, and a connection to hear them."""

    def moves_channel(self, chat_id: int) -> str:
        """The channel each save of the chat's record publishes its new version on."""
        return self._table_key(chat_id)

    def pubsub(self) -> PubSub:
        """A pub/sub connection of this store's client (the Mini App's subscriber).
        On a cluster, one to a node of its own: a PUBLISH (the save script's)
        reaches the subscribers of every node, so one node hears every chat.
        Each call takes the next node the client knows — the feed asks anew
        after a break, and a node that went is then not asked again first."""
        client = self._r
        if isinstance(client, RedisCluster):
            return self._node_client(client).pubsub()
        return client.pubsub()

    def _node_client(self, cluster: RedisCluster) -> Redis:
        """A plain client to the cluster's next node (kept: closed with the store)."""
        nodes = cluster.get_nodes() or cluster.startup_nodes
        node = nodes[self._next_node % len(nodes)]
        self._next_node += 1
        if node.name not in self._node_clients:
            options: dict[str, Any] = dict(cluster.get_connection_kwargs())
            for cluster_only in ("max_connections", "response_callbacks"):
                options.pop(cluster_only, None)
            options.update(host=node.host, port=node.port)
            # the feed's one subscriber, and one more while a broken one closes
            pool = ConnectionPool(max_connections=4, **options)
            self._node_clients[node.name] = Redis.from_pool(pool)
        return self._node_clients[node.name]
