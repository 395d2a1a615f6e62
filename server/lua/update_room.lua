-- Change one field of a room's document and keep its game's open set in step
-- (RedisLobby.create_room, set_seat, set_state and move_room); seats.lua comes first.
-- Both keys carry the room's shard tag ({s<N>}), so they share one hash slot. A room joins its
-- open set at Redis's time in microseconds, so that rooms are listed oldest first across
-- shards without a counter every room would share.
-- KEYS[1]  the room's document (<prefix>room:{s<N>}:<id>)
-- KEYS[2]  the open set of the room's game in its shard (<prefix>open:{s<N>}:<game>)
-- ARGV[1]  'state', 'node', or a seat's 0-based index
-- ARGV[2]  the new value as JSON: a state word, a node id, or a seat {kind, name, session, bot, guest}
-- ARGV[3]  seconds until the document expires (0: its expiry stays as it is)
-- Returns 1, or 0 when the room is gone.
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local room = cjson.decode(raw)
local value = cjson.decode(ARGV[2])
if ARGV[1] == 'state' then
  room.state = value
elseif ARGV[1] == 'node' then
  room.node = value
else
  room.seats[tonumber(ARGV[1]) + 1] = value
end
redis.call('SET', KEYS[1], cjson.encode(room), 'KEEPTTL')
if room.state == 'waiting' and room.public and free_seat(room) ~= nil then
  local now = redis.call('TIME')
  redis.call('ZADD', KEYS[2], 'NX', tonumber(now[1]) * 1000000 + tonumber(now[2]), room.room)
else
  redis.call('ZREM', KEYS[2], room.room)
end
if tonumber(ARGV[3]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return 1
