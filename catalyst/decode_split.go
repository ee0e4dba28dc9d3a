package catalyst

import (
	"errors"
	"io"
	"runtime"
	"sync/atomic"

	"github.com/twice-cli/twice/catalyst/jsonscan"
)

// A long list of events in a file is decoded on two cores: while the
// decoder works through the list from its start, a second decoder starts
// halfway, at what looks like the start of an event, and decodes to the
// end of the list. The guess is checked, not trusted: the first decoder
// takes over the second's events only if it arrives, between two events
// of the list, exactly where the second started; then the second decoded
// exactly the bytes the first would have, with the same code, and the
// result (events, run facts, errors) is the same as one decoder's. If the
// guess was wrong (the place found is inside a string, say), the first
// decoder goes on alone and the second's work is dropped.

// splitMinBytes is the shortest rest of the input, from the start of the
// event list, that is split.
const splitMinBytes = 8 << 20

// splitConfirm is how many events the second decoder decodes from a
// candidate start before it offers it: a place inside a payload rarely
// reads as that many events.
const splitConfirm = 32

// splitTries is how many candidate starts the second decoder tries.
const splitTries = 16

// splitSearchBytes is how far past halfway a candidate is looked for.
const splitSearchBytes = 16 << 20

// errSplitAbandoned ends the second decoder when the first no longer needs it.
var errSplitAbandoned = errors.New("the second decoder was abandoned")

// split is the second half of one event list, decoded on its own goroutine.
type split struct {
	// start is the offset of the second decoder's first event once it
	// offers it (decoded splitConfirm events from there), -1 before.
	start atomic.Int64
	// offered is closed when start is set.
	offered chan struct{}
	// abandon tells the second decoder to stop.
	abandon atomic.Bool
	done    chan struct{}
	// from is where the second decoder looks for a start: once the first
	// reaches it, it waits for the second's offer (or its giving up)
	// rather than pass an offer about to come.
	from int64

	// Set before done is closed, when start was offered.
	d   *decoder
	end int64 // offset just after the list's closing bracket
	err error

	src  io.ReaderAt
	size int64
}

// startSplit starts decoding the second half of the event list the scanner
// has just entered, when the input allows it: one the scanner can read at
// any offset (a file: jsonscan.NewReaderAt) with enough of it left, no cap
// on the events, more than one core.
func (d *decoder) startSplit(elem elemFormat) *split {
	src, size := d.sc.Input()
	if !d.top || src == nil || d.opts.MaxEvents > 0 || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	from := d.sc.Offset()
	if size-from < d.splitMin {
		return nil
	}
	sp := &split{done: make(chan struct{}), offered: make(chan struct{}), src: src, size: size,
		from: from + (size-from)/2}
	sp.start.Store(-1)
	// What the second decoder needs from the first is copied now, on this
	// goroutine: the scanner's state inside the list, the format.
	tmpl := d.sc.Fork(from) // a template: the second decoder forks it where it starts
	format, traits := d.format, d.h.Traits
	opts := d.opts
	go sp.run(tmpl, opts, format, traits, elem, sp.from)
	return sp
}

// startAt returns the offset the second decoder offers, or -1, for the
// first decoder at offset off, between two events: past the place the
// second looks from, it first waits for its offer or its giving up.
func (sp *split) startAt(off int64) int64 {
	if st := sp.start.Load(); st >= 0 || off < sp.from {
		return st
	}
	select {
	case <-sp.offered:
	case <-sp.done:
	}
	return sp.start.Load()
}

// offer makes start the second decoder's offer.
func (sp *split) offer(start int64) {
	sp.start.Store(start)
	close(sp.offered)
}

// stop abandons the second decoder and waits for it to return.
func (sp *split) stop() {
	if sp == nil {
		return
	}
	sp.abandon.Store(true)
	<-sp.done
}

// run tries candidate starts from offset from on until one is offered or
// none is left.
func (sp *split) run(tmpl *jsonscan.Scanner, opts DecodeOptions, format Format, traits Traits, elem elemFormat, from int64) {
	defer close(sp.done)
	limit := min(sp.size, from+splitSearchBytes)
	for range splitTries {
		if sp.abandon.Load() {
			return
		}
		cand := findEventStart(sp.src, from, limit)
		if cand < 0 {
			return
		}
		d := newDecoder(tmpl.Fork(cand), opts)
		d.format = format
		d.h.Traits = traits
		d.bulk = &bulk{split: true}
		err := d.splitEvents(elem, sp, cand)
		if sp.start.Load() == cand {
			sp.d, sp.err, sp.end = d, err, d.sc.Offset()
			return
		}
		from = cand + 1
	}
}

// splitEvents decodes events from the scanner's position to the end of the
// list, offering start once splitConfirm of them (or the whole rest, if
// shorter) decoded.
func (d *decoder) splitEvents(elem elemFormat, sp *split, start int64) error {
	for {
		if sp.abandon.Load() {
			return errSplitAbandoned
		}
		e, err := d.nextEvent()
		if err != nil {
			return err
		}
		if err := d.decodeEvent(elem, e); err != nil {
			return err
		}
		if d.h.Len() == splitConfirm {
			sp.offer(start)
		}
		more, err := d.sc.NextElement()
		if err != nil {
			return d.fail(err)
		}
		if !more {
			if d.h.Len() < splitConfirm {
				sp.offer(start)
			}
			d.event = -1
			return nil
		}
	}
}

// decodeEvent decodes one event of the list in its format.
func (d *decoder) decodeEvent(elem elemFormat, e *Event) error {
	switch elem {
	case elemFlat:
		return d.flatEvent(e)
	case elemCLI:
		return d.cliRow(e)
	}
	return d.protoEvent(e)
}

// join takes over the second decoder's events (the first decoder is at its
// start, between two events of the list): it waits for it, appends its
// events, folds them into the run facts, and resumes reading after the
// list. An error of the second decoder is the decode's error, its event
// counted from the list's start.
func (d *decoder) join(sp *split) error {
	<-sp.done
	d.splits++
	base := d.h.Len()
	if sp.err != nil {
		var de *DecodeError
		if errors.As(sp.err, &de) && de.Event >= 0 {
			de.Event += base
		}
		return sp.err
	}
	t := sp.d
	d.h.appendFrom(t.h)
	// What the events say about the run has one source, noteEvent: it
	// runs over the second half here, in order, as one decoder would have
	// run it (the second decoder notes nothing). What reading them set
	// besides the events is taken over too.
	for i := base; i < d.h.Len(); i++ {
		d.noteEvent(d.h.At(i))
	}
	d.takeRead(t, base)
	return d.fail(d.sc.Resume(sp.end))
}

// takeRead takes over what reading the second decoder's events set besides
// the events themselves (and so besides what noteEvent finds in them): the
// unknown fields it counted, the app a CLI row named (the first named wins),
// whether it met a row only the Dapr CLI v1.16 writes, and the CLI rows'
// execDuration values (base is where its events begin).
func (d *decoder) takeRead(t *decoder, base int) {
	d.h.UnknownFields += t.h.UnknownFields
	if d.h.Run.AppID == "" {
		d.h.Run.AppID = t.h.Run.AppID
	}
	d.run.cli116 = d.run.cli116 || t.run.cli116
	// The CLI rows' execDuration values (their elapsed values are in the
	// events), for rebuilding their times once every row is read: the
	// second half's rows follow the first's.
	d.cli.rows = d.cli.rows || t.cli.rows
	for _, x := range t.h.outOfRange {
		if x.Event >= 0 {
			x.Event += base
		}
		d.h.outOfRange = append(d.h.outOfRange, x)
	}
	for _, x := range t.cli.execs {
		x.row += int32(base)
		d.cli.execs = append(d.cli.execs, x)
	}
}

// findEventStart returns the offset of the first '{' at or after from (and
// before limit) that follows a ',' that follows a '}' (whitespace aside):
// where an object that is not the first of a list of objects starts, if
// the bytes are not inside a string. -1: none.
func findEventStart(src io.ReaderAt, from, limit int64) int64 {
	buf := make([]byte, 64<<10)
	// prev1 and prev2 are the last two non-space bytes seen.
	var prev1, prev2 byte
	for at := from; at < limit; {
		n, err := src.ReadAt(buf[:min(int64(len(buf)), limit-at)], at)
		for i, c := range buf[:n] {
			switch c {
			case ' ', '\t', '\n', '\r':
				continue
			case '{':
				if prev1 == ',' && prev2 == '}' {
					return at + int64(i)
				}
			}
			prev2, prev1 = prev1, c
		}
		at += int64(n)
		if err != nil || n == 0 {
			return -1
		}
	}
	return -1
}

// appendFrom moves t's events to the end of h, in order, renumbering their
// Index; t is left empty. h's last chunk is filled first, so t's chunks are
// realigned in place.
func (h *History) appendFrom(t *History) {
	const size = 1 << chunkBits
	if t.n == 0 {
		return
	}
	at := func(i int) *Event { return &t.chunks[i>>chunkBits][i&(size-1)] }
	n, rest := t.n, 0
	// Fill h's last chunk from t's first events.
	if last := len(h.chunks) - 1; last >= 0 && len(h.chunks[last]) < size {
		c := h.chunks[last]
		room := min(size-len(c), n)
		for i := range room {
			c = append(c, *at(i))
		}
		h.chunks[last] = c
		rest = room
	}
	// Shift the others to the front of t's chunks, chunk by chunk: the
	// events for chunk j come from chunks j and j+1, which no earlier step
	// has overwritten beyond what it already moved.
	if rest > 0 {
		for j := 0; rest+j*size < n; j++ {
			lo, hi := rest+j*size, min(rest+(j+1)*size, n)
			dst := t.chunks[j][:size]
			first := copy(dst, t.chunks[lo>>chunkBits][lo&(size-1):min(size, len(t.chunks[lo>>chunkBits]))])
			if first < hi-lo {
				copy(dst[first:hi-lo], t.chunks[(lo>>chunkBits)+1][:hi-lo-first])
			}
			old := len(t.chunks[j])
			t.chunks[j] = dst[:hi-lo]
			if old > hi-lo {
				clear(dst[hi-lo : old])
			}
		}
		used := (n - rest + size - 1) / size
		for j := used; j < len(t.chunks); j++ {
			t.chunks[j] = nil
		}
		t.chunks = t.chunks[:used]
	}
	h.chunks = append(h.chunks, t.chunks...)
	for i := h.n; i < h.n+n; i++ {
		h.At(i).Index = int32(i)
	}
	h.n += n
	t.chunks, t.n = nil, 0
}
