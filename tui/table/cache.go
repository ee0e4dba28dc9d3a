package table

// cacheChunkBits sets the rows per cache chunk (1<<cacheChunkBits).
const cacheChunkBits = 10

// Cache holds each row's rendered cells, built the first time the row is
// shown and kept: history text is sanitized once per row, not once per
// frame. Storage is allocated in chunks of rows as they are first shown, so
// a million-row list that the user never scrolls costs nothing.
type Cache[T any] struct {
	chunks [][]T
	built  [][]bool
}

// Get returns row i's cells, building them with build the first time.
func (c *Cache[T]) Get(i int, build func(i int) T) *T {
	ci, j := i>>cacheChunkBits, i&(1<<cacheChunkBits-1)
	if ci >= len(c.chunks) {
		c.chunks = append(c.chunks, make([][]T, ci+1-len(c.chunks))...)
		c.built = append(c.built, make([][]bool, ci+1-len(c.built))...)
	}
	if c.chunks[ci] == nil {
		c.chunks[ci] = make([]T, 1<<cacheChunkBits)
		c.built[ci] = make([]bool, 1<<cacheChunkBits)
	}
	if !c.built[ci][j] {
		c.chunks[ci][j] = build(i)
		c.built[ci][j] = true
	}
	return &c.chunks[ci][j]
}

// Reset forgets every row.
func (c *Cache[T]) Reset() {
	c.chunks, c.built = nil, nil
}
