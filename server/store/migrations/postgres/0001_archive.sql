-- The archive's first tables (server/store/base.py explains each). PostgreSQL: times are
-- double precision Unix seconds; JSON columns text, kept exactly as written. Ids compare by
-- code point (COLLATE "C"), as SQLite compares them, whatever the database's locale: the
-- leaderboard's and history's ties are broken by id the same way on both backends.
CREATE TABLE players (
    id text COLLATE "C" PRIMARY KEY,
    name text NOT NULL,
    bot boolean NOT NULL DEFAULT false,
    created double precision NOT NULL
);

CREATE TABLE player_keys (
    key_hash text COLLATE "C" PRIMARY KEY,
    player text COLLATE "C" NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created double precision NOT NULL
);
CREATE INDEX player_keys_player ON player_keys (player);

CREATE TABLE transfer_codes (
    code_hash text COLLATE "C" PRIMARY KEY,
    player text COLLATE "C" NOT NULL UNIQUE REFERENCES players (id) ON DELETE CASCADE,
    expires double precision NOT NULL
);

CREATE TABLE ratings (
    player text COLLATE "C" NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    game text COLLATE "C" NOT NULL,
    rating double precision NOT NULL,
    deviation double precision NOT NULL,
    volatility double precision NOT NULL,
    games integer NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE INDEX ratings_board ON ratings (game, rating DESC, games DESC, player);

CREATE TABLE matches (
    record_id text COLLATE "C" PRIMARY KEY,
    game text COLLATE "C" NOT NULL,
    rated boolean NOT NULL,
    ended double precision NOT NULL,
    players text NOT NULL,
    scores text NOT NULL,
    winner integer,
    record text NOT NULL,
    analysis text
);
CREATE INDEX matches_casual_ended ON matches (ended) WHERE NOT rated;

CREATE TABLE match_seats (
    record_id text COLLATE "C" NOT NULL REFERENCES matches (record_id) ON DELETE CASCADE,
    seat integer NOT NULL,
    player text COLLATE "C" NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    ended double precision NOT NULL,
    rating_before double precision,
    rating_after double precision,
    PRIMARY KEY (record_id, seat)
);
CREATE INDEX match_seats_history ON match_seats (player, ended DESC, record_id DESC);
