-- Let a session and its token expire (RedisLobby.expire_session) unless it is saved again.
-- KEYS[1]  the session ({prefix}session:{id}), JSON with its token_hash and room
-- ARGV[1]  the token keys' prefix ({prefix}token:), to which the session's token_hash is added
-- ARGV[2]  milliseconds until both expire
-- ARGV[3]  a room id: only if the session is still that room's; '' for any session
-- Returns 1 when an expiry was set, else 0.
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local session = cjson.decode(raw)
if ARGV[3] ~= '' and session.room ~= ARGV[3] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', ARGV[1] .. session.token_hash, ARGV[2])
return 1
