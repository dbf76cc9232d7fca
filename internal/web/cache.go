package web

import (
	"container/list"
	"sync"
)

// pageCache keeps made pages (or other values) in memory, at most max
// bytes of them, dropping the least recently used first. Each entry
// carries the version of what it was made from (store.WebGame.Version):
// an entry of another version is made again, so a game's pages change
// when the game does and never before.
type pageCache struct {
	mu      sync.Mutex
	max     int
	size    int
	order   *list.List // of *cacheEntry, the most recently used first
	entries map[string]*list.Element
}

type cacheEntry struct {
	key, version string
	value        any
	size         int
}

func newPageCache(maxBytes int) *pageCache {
	return &pageCache{max: maxBytes, order: list.New(), entries: map[string]*list.Element{}}
}

// get is the page kept under key at version, or nil.
func (c *pageCache) get(key, version string) *Page {
	p, _ := c.getValue(key, version).(*Page)
	return p
}

// put keeps p under key at version.
func (c *pageCache) put(key, version string, p *Page) {
	c.putValue(key, version, p, len(p.Body)+len(p.Name)+len(key)+len(version)+128)
}

func (c *pageCache) getValue(key, version string) any {
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.entries[key]
	if el == nil {
		return nil
	}
	e := el.Value.(*cacheEntry)
	if e.version != version {
		c.remove(el)
		return nil
	}
	c.order.MoveToFront(el)
	return e.value
}

func (c *pageCache) putValue(key, version string, v any, size int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el := c.entries[key]; el != nil {
		c.remove(el)
	}
	if size > c.max/8 {
		return // one value never takes more than an eighth of the cache
	}
	c.entries[key] = c.order.PushFront(&cacheEntry{key: key, version: version, value: v, size: size})
	c.size += size
	for c.size > c.max {
		c.remove(c.order.Back())
	}
}

func (c *pageCache) remove(el *list.Element) {
	e := el.Value.(*cacheEntry)
	c.order.Remove(el)
	delete(c.entries, e.key)
	c.size -= e.size
}
