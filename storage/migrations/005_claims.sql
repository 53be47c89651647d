-- Several processes on one database: a due timer and an outbox row are claimed by one process until
-- claimed_until (a lease: a process that dies holding one lets another take it when the lease runs out).
ALTER TABLE timers ADD COLUMN claimed_until REAL NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN claimed_until REAL NOT NULL DEFAULT 0;
