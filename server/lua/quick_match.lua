-- Claim a seat in the oldest open public room of a game (RedisLobby.quick_match); seats.lua
-- comes first. Rooms of the open set that no longer take a player are dropped from it.
-- KEYS[1]  the game's open set ({prefix}open:{game}), rooms by the order they opened
-- ARGV[1]  the key prefix, to name each room's document ({prefix}room:{id})
-- ARGV[2]  the session taking the seat
-- ARGV[3]  the player's name
-- Returns {room id, 0-based seat}, or nil when no room has a seat.
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, id in ipairs(ids) do
  local key = ARGV[1] .. 'room:' .. id
  local raw = redis.call('GET', key)
  if raw then
    local room = cjson.decode(raw)
    local free = free_seat(room)
    if room.state == 'waiting' and room.public and free ~= nil then
      return {id, take_seat(key, KEYS[1], room, free, ARGV[2], ARGV[3])}
    end
  end
  redis.call('ZREM', KEYS[1], id)
end
return nil
