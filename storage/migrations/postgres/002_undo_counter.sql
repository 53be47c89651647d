-- See ../002_undo_counter.sql.
ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0;
