-- The archive's first tables (server/store/base.py explains each). SQLite: times are REAL Unix
-- seconds, booleans 0/1, JSON columns TEXT.
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    bot INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);

CREATE TABLE player_keys (
    key_hash TEXT PRIMARY KEY,
    player TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created REAL NOT NULL
);
CREATE INDEX player_keys_player ON player_keys (player);

CREATE TABLE transfer_codes (
    code_hash TEXT PRIMARY KEY,
    player TEXT NOT NULL UNIQUE REFERENCES players (id) ON DELETE CASCADE,
    expires REAL NOT NULL
);

CREATE TABLE ratings (
    player TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE INDEX ratings_board ON ratings (game, rating DESC, games DESC, player);

CREATE TABLE matches (
    record_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    rated INTEGER NOT NULL,
    ended REAL NOT NULL,
    players TEXT NOT NULL,
    scores TEXT NOT NULL,
    winner INTEGER,
    record TEXT NOT NULL,
    analysis TEXT
);
CREATE INDEX matches_casual_ended ON matches (ended) WHERE rated = 0;

CREATE TABLE match_seats (
    record_id TEXT NOT NULL REFERENCES matches (record_id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    ended REAL NOT NULL,
    rating_before REAL,
    rating_after REAL,
    PRIMARY KEY (record_id, seat)
);
CREATE INDEX match_seats_history ON match_seats (player, ended DESC, record_id DESC);
