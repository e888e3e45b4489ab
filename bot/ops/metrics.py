"""Prometheus metrics: what a command, a post, a timer, a render and the event loop cost, and how far behind
the outbox and the timers are. One registry per process; /metrics serves it (see health.py)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)
# Discord wants an answer within 3 s: the buckets are finest below that
LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)

COMMANDS = Counter("herald_commands", "Slash commands handled, by command and outcome "
                   "(ok, refused: the user was told why, error: Herald failed, repeat: a retry answered from its "
                   "receipt)", ["command", "outcome"], registry=REGISTRY)
COMMAND_SECONDS = Histogram("herald_command_seconds", "Time from receiving a command to finishing it",
                            ["command"], buckets=LATENCY_BUCKETS, registry=REGISTRY)
POSTS_SENT = Counter("herald_posts_sent", "Messages the outbox sent to Discord", registry=REGISTRY)
OUTBOX_BACKLOG = Gauge("herald_outbox_backlog", "Posts waiting to be delivered (all processes)", registry=REGISTRY)
OUTBOX_OLDEST = Gauge("herald_outbox_oldest_seconds", "Age of the oldest post waiting to be delivered",
                      registry=REGISTRY)
TIMER_LAG = Gauge("herald_timer_lag_seconds", "How long the most overdue timer has been due and not fired",
                  registry=REGISTRY)
RENDER_SECONDS = Histogram("herald_render_seconds", "Time to draw a map",
                           buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0), registry=REGISTRY)
LOOP_LAG = Gauge("herald_event_loop_lag_seconds", "How late the event loop last woke a sleeper",
                 registry=REGISTRY)
LOOP_LAG_SECONDS = Histogram("herald_event_loop_lag", "How late the event loop woke sleepers, seconds",
                             buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 3.0), registry=REGISTRY)
SHARD_LATENCY = Gauge("herald_shard_latency_seconds", "Gateway heartbeat latency of each shard this process owns",
                      ["shard"], registry=REGISTRY)
SHARDS_UP = Gauge("herald_shards_connected", "Shards of this process connected to the gateway", registry=REGISTRY)
