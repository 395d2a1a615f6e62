-- Every live node's last heartbeat (RedisLobby.heartbeats), read in one call: every node of
-- a cluster asks for them at each beat, and one call spares the registry's slot a command for
-- each key of each node.
-- KEYS[1]  every node that ever registered (<prefix>nodes:{nodes})
-- ARGV[1]  the key prefix: a node's keys are <prefix>node:{nodes}:<id> (its URL) and
--          <prefix>beat:{nodes}:<id> (the beat's lifetime in ms), both carrying KEYS[1]'s
--          tag {nodes}, so they share its hash slot (a Redis Cluster runs a script on keys it
--          did not declare only within the declared slot)
-- Returns a flat list, four items a live node: its id, its URL, the beat's lifetime ('' when
-- the node did not write it) and the milliseconds the beat has left (PTTL).
local beats = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local url = redis.call('GET', ARGV[1] .. 'node:{nodes}:' .. id)
  if url then
    local beat = ARGV[1] .. 'beat:{nodes}:' .. id
    table.insert(beats, id)
    table.insert(beats, url)
    table.insert(beats, redis.call('GET', beat) or '')
    table.insert(beats, redis.call('PTTL', beat))
  end
end
return beats
