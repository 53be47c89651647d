-- Languages. A table's channel posts are in its own language (chosen when it is made, else the server's), a
-- player's answers and DMs in theirs: the one chosen with /language (lang), else the one their Discord client
-- last showed the bot (seen_lang).
ALTER TABLE games ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';
ALTER TABLE users ADD COLUMN lang TEXT;
ALTER TABLE users ADD COLUMN seen_lang TEXT;
