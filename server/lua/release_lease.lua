-- End a node's own lease on a room (RedisLobby.release_lease); another node's lease stays.
-- KEYS[1]  the room's lease (<prefix>lease:{<id>}, the room's own hash tag), holding the node's id
-- ARGV[1]  the node ending its lease
-- Returns 1 when the lease was the node's and is gone, else 0.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
