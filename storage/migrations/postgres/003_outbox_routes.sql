-- See ../003_outbox_routes.sql.
ALTER TABLE outbox ADD COLUMN due_at DOUBLE PRECISION NOT NULL DEFAULT 0;
CREATE INDEX outbox_route ON outbox(kind, target_id, id) WHERE sent_at IS NULL AND failed IS NULL;
