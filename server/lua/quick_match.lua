-- Claim a seat in an open public room of a game in one shard (RedisLobby.quick_match calls it
-- shard by shard); seats.lua comes first. Rooms of the open set that no longer take a player are
-- dropped from it. Only rooms of the request's kind are candidates: rated rooms for a rated
-- request, casual rooms for a casual one. Casual: the oldest room. Rated: the room whose rating
-- (its waiting player's) is nearest the player's, among those within the room's window, which
-- widens with how long the room has waited (ARGV[6] + ARGV[7] per second, by Redis's clock and
-- the open set's score, when the room opened); a rated room without a rating takes any rated
-- player, after every room with one (MemoryLobby.quick_match is this rule's twin).
-- KEYS[1]  the game's open set in the shard (<prefix>open:{s<N>}:<game>), rooms by when they opened
--          (Redis's TIME in microseconds)
-- ARGV[1]  the shard's room document prefix (<prefix>room:{s<N>}:): each room's document is this
--          and its id, so it carries the shard's tag and shares KEYS[1]'s hash slot (a Redis
--          Cluster runs a script on keys it did not declare only within the declared slot)
-- ARGV[2]  the session taking the seat
-- ARGV[3]  the player's name
-- ARGV[4]  '1' for a rated request, '0' for a casual one
-- ARGV[5]  the player's rating (rated requests)
-- ARGV[6]  the rating window of a room that has just opened
-- ARGV[7]  how much the window widens per second the room has waited
-- ARGV[8]  '' to take a seat in the best room; 'peek' to take nothing and return the best room's
--          id and its distance from the player's rating (as a string), for the caller to compare
--          shards; or a room id: take a seat in that room only, if it still qualifies
-- ARGV[9]  the player's guest number ('' when the player chose a name)
-- Returns {room id, 0-based seat} (or {room id, distance} for 'peek'), or nil when no room of the
-- shard qualifies.
local UNRATED = 1e9  -- the distance of a rated room without a rating: after any room with one
local rated = ARGV[4] == '1'
local rating = tonumber(ARGV[5]) or 0
local mode = ARGV[8] or ''
local now = redis.call('TIME')
local now_us = tonumber(now[1]) * 1000000 + tonumber(now[2])
local ids = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local best, best_key, best_room, best_free, best_distance = nil, nil, nil, nil, nil
for i = 1, #ids, 2 do
  local id, opened = ids[i], tonumber(ids[i + 1])
  local key = ARGV[1] .. id
  local raw = redis.call('GET', key)
  local room = raw and cjson.decode(raw)
  local free = room and free_seat(room)
  if room and room.state == 'waiting' and room.public and free ~= nil then
    local room_rated = room.rated == true
    if room_rated == rated and (mode == '' or mode == 'peek' or mode == id) then
      local distance = 0
      local fits = true
      if rated then
        if room.rating == nil or room.rating == cjson.null then
          distance = UNRATED
        else
          distance = math.abs(tonumber(room.rating) - rating)
          local waited = math.max(0, now_us - opened) / 1000000
          fits = distance <= tonumber(ARGV[6]) + tonumber(ARGV[7]) * waited
        end
      end
      if fits and (best_distance == nil or distance < best_distance) then
        best, best_key, best_room, best_free, best_distance = id, key, room, free, distance
        if not rated then break end  -- casual: the oldest room
      end
    end
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
if best == nil then return nil end
if mode == 'peek' then return {best, tostring(best_distance)} end
return {best, take_seat(best_key, KEYS[1], best_room, best_free, ARGV[2], ARGV[3], ARGV[9])}
