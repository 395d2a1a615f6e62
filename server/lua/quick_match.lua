-- Claim a seat in the oldest open public room of a game in one shard (RedisLobby.quick_match
-- calls it shard by shard, oldest shard first); seats.lua comes first. Rooms of the open set
-- that no longer take a player are dropped from it.
-- KEYS[1]  the game's open set in the shard (<prefix>open:{s<N>}:<game>), rooms by when they opened
-- ARGV[1]  the shard's room document prefix (<prefix>room:{s<N>}:): each room's document is this
--          and its id, so it carries the shard's tag and shares KEYS[1]'s hash slot (a Redis
--          Cluster runs a script on keys it did not declare only within the declared slot)
-- ARGV[2]  the session taking the seat
-- ARGV[3]  the player's name
-- Returns {room id, 0-based seat}, or nil when no room of the shard has a seat.
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, id in ipairs(ids) do
  local key = ARGV[1] .. id
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
