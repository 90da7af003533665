package cache

import (
	"testing"
	"time"
)

func TestTTL(t *testing.T) {
	at := time.Unix(1000, 0)
	c := New()
	c.now = func() time.Time { return at }
	c.Set("a", "1", time.Minute)
	c.Set("b", "2", 0)
	if v, ok := c.Get("a"); !ok || v != "1" {
		t.Fatalf("fresh entry: %q %v", v, ok)
	}
	at = at.Add(2 * time.Minute)
	if _, ok := c.Get("a"); ok {
		t.Fatal("expired entry still returned")
	}
	if v, ok := c.Get("b"); !ok || v != "2" {
		t.Fatal("ttl 0 must never expire")
	}
}

func TestRemember(t *testing.T) {
	at := time.Unix(0, 0)
	c := New()
	c.now = func() time.Time { return at }
	Remember(c, "7", "ada")
	at = at.Add(4 * time.Minute)
	if _, ok := c.Get("user:7"); !ok {
		t.Fatal("gone before 5 minutes")
	}
	at = at.Add(2 * time.Minute)
	if _, ok := c.Get("user:7"); ok {
		t.Fatal("still there after 5 minutes")
	}
}
