-- Claim a free seat for people in one room (RedisLobby.claim_seat); seats.lua comes first.
-- Both keys carry the room's shard tag ({s<N>}), so they share one hash slot.
-- KEYS[1]  the room's document (<prefix>room:{s<N>}:<id>)
-- KEYS[2]  the open set of the room's game in its shard (<prefix>open:{s<N>}:<game>)
-- ARGV[1]  the session taking the seat
-- ARGV[2]  the player's name
-- ARGV[3]  the player's guest number ('' when the player chose a name)
-- Returns the seat's 0-based index, or the refusal's error code:
-- 'unknown_room', 'room_started' or 'room_full'.
local raw = redis.call('GET', KEYS[1])
if not raw then return 'unknown_room' end
local room = cjson.decode(raw)
if room.state ~= 'waiting' then return 'room_started' end
local free = free_seat(room)
if free == nil then return 'room_full' end
return take_seat(KEYS[1], KEYS[2], room, free, ARGV[1], ARGV[2], ARGV[3])
