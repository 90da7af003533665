package cache

// Remember stores a user's name.
func Remember(c *Cache, user, name string) { c.Set("user:"+user, name) }
