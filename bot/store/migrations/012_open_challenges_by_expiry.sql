-- The challenges still open, by when they expire: the deadline poll finds the expired ones by
-- this index instead of walking every challenge ever made. From this migration on, each one is
-- written for SQLite and PostgreSQL alike (PostgreSQL databases start at schema 11).
CREATE INDEX challenges_open_by_expiry ON challenges (expires_at) WHERE status = 'open';
