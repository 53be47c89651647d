-- Counts undos per table, so a process holding a cached state notices an undo made elsewhere.
ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0;
