-- The language a server chose for its typed commands' replies (`!settings language de`);
-- NULL: English. Slash commands and buttons speak their user's own language instead.
ALTER TABLE servers ADD COLUMN language TEXT;
