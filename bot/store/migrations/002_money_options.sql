-- Money-game options a challenge can ask for: {"jacoby": true, "beavers": true, "automatic_doubles": 3}
ALTER TABLE challenges ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
