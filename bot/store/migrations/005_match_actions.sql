-- Each action of a match stored once, appended as it is taken (``seq`` counts from 0), instead of
-- the whole record rewritten in ``matches.state`` at every save. ``state`` keeps what never
-- changes (the format, the options and the dice: a seed, or the nonce of keyed dice);
-- ``snapshot`` is the match's current state (JSON, see bot/rules/snapshot.py), rewritten at
-- each save, so that loading a match reads no action. Rows migrated here have no snapshot yet:
-- the bot rebuilds it from the log. A damaged state (not JSON, or no action list) stays as it is.
CREATE TABLE match_actions (
    match_id  INTEGER NOT NULL REFERENCES matches (id),
    seq       INTEGER NOT NULL CHECK (seq >= 0),
    action    TEXT NOT NULL,             -- JSON: {"action": "move", "player": 0, "play": ...}
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;

ALTER TABLE matches ADD COLUMN snapshot TEXT;

-- CASE evaluates lazily: json_each and json_type never see a state that is not JSON.
INSERT INTO match_actions (match_id, seq, action)
    SELECT m.id, a.key, a.value
    FROM matches m,
         json_each(CASE WHEN json_valid(m.state) THEN
                       CASE WHEN json_type(m.state, '$.actions') = 'array' THEN m.state END
                   END, '$.actions') a;

UPDATE matches SET state = json_remove(state, '$.actions')
    WHERE CASE WHEN json_valid(state) THEN json_type(state, '$.actions') = 'array' ELSE 0 END;
