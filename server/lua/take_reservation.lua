-- Take a seat held for a client sent here from another node (RedisLobby.take_reservation).
-- Only its own session consumes it: another session's attempt leaves it to its owner.
-- KEYS[1]  the reservation (<prefix>reservation:<token>), JSON [room, seat, session]
-- ARGV[1]  the session taking it
-- Returns the reservation's JSON, now deleted, or false.
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
if cjson.decode(raw)[3] ~= ARGV[1] then return false end
redis.call('DEL', KEYS[1])
return raw
