-- Let a session expire (RedisLobby.expire_session) unless it is saved again; the lobby then
-- gives its token the same expiry (the token key has a hash slot of its own).
-- KEYS[1]  the session (<prefix>session:<id>), JSON with its token_hash and room
-- ARGV[1]  milliseconds until it expires
-- ARGV[2]  a room id: only if the session is still that room's; '' for any session
-- Returns the session's token_hash when an expiry was set, else false.
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
local session = cjson.decode(raw)
if ARGV[2] ~= '' and session.room ~= ARGV[2] then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return session.token_hash
