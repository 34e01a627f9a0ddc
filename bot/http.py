"""The Bot API client: requests spread over several small connection pools.

httpcore's connection pool looks at every one of its connections each time a request starts or
ends, and for each idle connection it counts all of them again (quadratic). With Telegram 100 ms
away, 500 calls a second keep 50-100 connections open and that bookkeeping took more than half
of a process's CPU (``bench/bot.py --open --latency 100``, profiled). The same 256 connections in
:data:`SHARDS` pools of :data:`PER_SHARD` cost a small fraction of it. A request goes to the pool
with the fewest requests in flight, so no pool waits while another has room.

The pools share one TLS context (:func:`tls_context`): each building its own loaded the CA
bundle 32 times, seconds of CPU at every start.
"""

from __future__ import annotations

import functools
import ssl
from typing import Any

import certifi
from telegram.request import BaseRequest, RequestData

from bot.ops import CountingRequest

SHARDS = 32
PER_SHARD = 8


@functools.cache
def tls_context() -> ssl.SSLContext:
    """The process's one TLS context for the Bot API (what httpx would build for each client:
    the system's defaults with certifi's CA bundle, certificates verified).

    >>> tls_context() is tls_context(), tls_context().verify_mode == ssl.CERT_REQUIRED
    (True, True)
    """
    return ssl.create_default_context(cafile=certifi.where())


class SplitRequest(BaseRequest):
    """A :class:`~telegram.request.BaseRequest` over ``shards`` :class:`CountingRequest` pools
    of ``per_shard`` connections each."""

    __slots__ = ("_busy", "_shards")

    def __init__(self, shards: int = SHARDS, per_shard: int = PER_SHARD, **kwargs: Any) -> None:
        httpx_kwargs = {"verify": tls_context(), **kwargs.pop("httpx_kwargs", {})}
        self._shards = [
            CountingRequest(connection_pool_size=per_shard, httpx_kwargs=httpx_kwargs, **kwargs)
            for _ in range(shards)
        ]
        self._busy = [0] * shards

    @property
    def read_timeout(self) -> float | None:
        return self._shards[0].read_timeout

    async def initialize(self) -> None:
        for shard in self._shards:
            await shard.initialize()

    async def shutdown(self) -> None:
        for shard in self._shards:
            await shard.shutdown()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[int, bytes]:
        busy = self._busy
        index = busy.index(min(busy))
        busy[index] += 1
        try:
            return await self._shards[index].do_request(url, method, request_data, *args, **kwargs)
        finally:
            busy[index] -= 1
