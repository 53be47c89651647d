"""Routes on the Tokai Baron map for tests."""
from __future__ import annotations

from collections import deque

from engines.tokai import network as nw


def along(line: str, a: str, b: str) -> list[tuple[str, str]]:
    """The hops from a to b the short way along one line, as (point, line) pairs (a itself left out)."""
    graph = nw.build_graph()
    prev = {a: None}
    queue = deque([a])
    while queue:
        here = queue.popleft()
        for there, tags in graph[here].items():
            if line in tags and there not in prev:
                prev[there] = here
                queue.append(there)
    out = []
    while b != a:
        out.append((b, line))
        b = prev[b]
    return out[::-1]
