-- A failed message waits (due_at) before it is tried again. Each recipient or channel is a route with its own
-- queue, found by the partial index.
ALTER TABLE outbox ADD COLUMN due_at REAL NOT NULL DEFAULT 0;
CREATE INDEX outbox_route ON outbox(kind, target_id, id) WHERE sent_at IS NULL AND failed IS NULL;
