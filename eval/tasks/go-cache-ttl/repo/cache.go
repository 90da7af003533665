package cache

import "time"

type entry struct {
	value string
}

// Cache is a string cache.
type Cache struct {
	items map[string]entry
	now   func() time.Time
}

// New returns an empty cache on the wall clock.
func New() *Cache { return &Cache{items: map[string]entry{}, now: time.Now} }

// Set stores value under key.
func (c *Cache) Set(key, value string) { c.items[key] = entry{value: value} }

// Get returns the value under key.
func (c *Cache) Get(key string) (string, bool) {
	e, ok := c.items[key]
	return e.value, ok
}
