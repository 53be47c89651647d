-- See ../004_languages.sql.
ALTER TABLE games ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';
ALTER TABLE users ADD COLUMN lang TEXT;
ALTER TABLE users ADD COLUMN seen_lang TEXT;
