-- Seat rules shared by claim_seat.lua, quick_match.lua and update_room.lua: the lobby loads
-- this file in front of each of them, so a seat is claimed, and a room listed as open in its
-- shard, by one rule whichever request decides it. It reads no KEYS or ARGV of its own.
--
-- A room is the JSON document of server/lobby.py's RoomEntry: `seats` is a list of
-- {kind, name, session, bot, guest}, where kind is 'open', 'human' or 'bot'; `humans` is how many
-- seats are for people.

-- The first open seat (1-based) while the room has a seat left for people, else nil
-- (RoomEntry.human_seats_free in Python).
local function free_seat(room)
  local humans, free = 0, nil
  for i, seat in ipairs(room.seats) do
    if seat.kind == 'human' then humans = humans + 1 end
    if seat.kind == 'open' and free == nil then free = i end
  end
  if humans >= room.humans then return nil end
  return free
end

-- Seat `session` (called `name`; `guest`: its guest number as digits, '' for a chosen name) in
-- the room's seat `free`, write the document back to `key`
-- and take the room off its game's open set `open_key` (in the room's shard) once no seat for
-- people is left.
-- Returns the seat's 0-based index.
local function take_seat(key, open_key, room, free, session, name, guest)
  local number = cjson.null
  if guest ~= nil and guest ~= '' then number = tonumber(guest) end
  room.seats[free] = {kind = 'human', name = name, session = session, bot = cjson.null, guest = number}
  redis.call('SET', key, cjson.encode(room), 'KEEPTTL')
  if free_seat(room) == nil then redis.call('ZREM', open_key, room.room) end
  return free - 1
end
