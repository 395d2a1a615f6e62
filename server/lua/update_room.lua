-- Change one field of a room's document and keep its game's open set in step
-- (RedisLobby.set_seat and set_state); seats.lua comes first.
-- KEYS[1]  the room's document ({prefix}room:{id})
-- KEYS[2]  the open set of the room's game ({prefix}open:{game})
-- KEYS[3]  the counter that orders the open sets ({prefix}seq)
-- ARGV[1]  'state', or a seat's 0-based index
-- ARGV[2]  the new value as JSON: a state word, or a seat {kind, name, session, bot}
-- ARGV[3]  seconds until the document expires (0: its expiry stays as it is)
-- Returns 1, or 0 when the room is gone.
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local room = cjson.decode(raw)
local value = cjson.decode(ARGV[2])
if ARGV[1] == 'state' then
  room.state = value
else
  room.seats[tonumber(ARGV[1]) + 1] = value
end
redis.call('SET', KEYS[1], cjson.encode(room), 'KEEPTTL')
if room.state == 'waiting' and room.public and free_seat(room) ~= nil then
  redis.call('ZADD', KEYS[2], 'NX', redis.call('INCR', KEYS[3]), room.room)
else
  redis.call('ZREM', KEYS[2], room.room)
end
if tonumber(ARGV[3]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return 1
