-- Name the empty incarnation of a node that a client found without its initialization marker
-- (it restarted without its data). The name is a random id kept on the node itself, so a
-- second loss of memory erases it: a client that times its wait before re-admitting the node
-- from the moment it first saw this name never counts time spent in an earlier incarnation.
--
-- KEYS[1]  node marker
-- KEYS[2]  the empty incarnation's name
-- ARGV[1]  a fresh random id, used only if this incarnation has no name yet
--
-- Returns the incarnation's name (ARGV[1] if this call named it, or the name another client
-- gave it first), or "" if the node has its marker (it was re-admitted meanwhile).
if redis.call('EXISTS', KEYS[1]) == 1 then
  return ''
end
redis.call('SET', KEYS[2], ARGV[1], 'NX')
return redis.call('GET', KEYS[2])
