-- Facts about the database itself, e.g. a check value of the dice key it was used with.
CREATE TABLE meta (
    name   TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
