-- The analyses table becomes the queue every host of the bot takes jobs from (FOR UPDATE SKIP
-- LOCKED on PostgreSQL): ``worker`` names the process running a job and ``lease_until`` is when
-- another may take it over (the runner renews it while it works; a host that died lets it
-- lapse). ``games_done`` of ``games_total`` is its progress, for a message followed on any host.
-- ``asked_by``: the user who asked for it (NULL: started when the match ended), whose waiting
-- jobs are limited. A job left running by the bot stopped for this upgrade waits in the queue.
ALTER TABLE analyses ADD COLUMN asked_by TEXT;
ALTER TABLE analyses ADD COLUMN worker TEXT;
ALTER TABLE analyses ADD COLUMN lease_until DOUBLE PRECISION;
ALTER TABLE analyses ADD COLUMN games_done INTEGER NOT NULL DEFAULT 0;
ALTER TABLE analyses ADD COLUMN games_total INTEGER NOT NULL DEFAULT 0;
UPDATE analyses SET status = 'queued' WHERE status = 'running';
