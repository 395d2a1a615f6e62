-- Journal a room's next accepted action (RedisLobby.append_action). Only the next index is
-- appended, so a write that is retried (or sent twice) is harmless.
-- KEYS[1]  the room's action list (<prefix>actions:{<id>}, the room's own hash tag)
-- ARGV[1]  the action's 0-based index
-- ARGV[2]  the action as JSON
-- Returns the list's new length, or its length unchanged when the index was not the next.
local length = redis.call('LLEN', KEYS[1])
if length == tonumber(ARGV[1]) then return redis.call('RPUSH', KEYS[1], ARGV[2]) end
-- the same action again (a write retried after WAIT found too few replicas): written again, so
-- that the WAIT behind it waits for it on this connection too
if length > tonumber(ARGV[1]) and redis.call('LINDEX', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('LSET', KEYS[1], ARGV[1], ARGV[2])
end
return length
