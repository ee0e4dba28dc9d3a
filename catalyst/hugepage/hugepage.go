// Package hugepage asks the kernel to back large, long-lived allocations
// with transparent huge pages.
//
// Go's heap is mapped in small pages unless the system enables huge pages
// for all memory. Where it enables them only for memory that asks (the
// kernel's "madvise" setting, common on servers), a history of a million
// events faults its events in 4 KiB at a time: some 40,000 page faults,
// each a trip into the kernel, and as many TLB entries to walk the events
// later. Advised, the same memory faults in 2 MiB at a time.
//
// Advice is a hint: where huge pages are unavailable or disabled, or on a
// system other than Linux, nothing changes, and nothing fails.
//
// It is part of twice, not a library: its API follows twice's needs. It is
// used by catalyst (a history's events) and detect (its largest blocks), so
// it cannot sit under one folder's internal/ (docs/architecture.md,
// "Packages").
package hugepage

import "unsafe"

// Size is the huge page size advised for: 2 MiB, what x86-64 and arm64
// with 4 KiB base pages use.
const Size = 2 << 20

// Advise asks for huge pages behind the whole capacity of s, before it is
// written: memory already touched keeps its small pages. The range is
// widened to whole huge pages, so it takes in neighbouring heap memory (the
// Go heap is mapped in aligned 64 MiB arenas, so it stays within the heap).
// That suits slices allocated one after another for one purpose, like a
// history's event chunks; for a lone slice, see AdviseLarge.
func Advise[T any](s []T) {
	n := sizeOf(s)
	if n == 0 {
		return
	}
	lo, hi := Span(uintptr(unsafe.Pointer(unsafe.SliceData(s))), n)
	advise(lo, hi-lo)
}

// LargeMin is the smallest slice AdviseLarge advises: four huge pages, of
// which the widening adds at most two.
const LargeMin = 4 * Size

// AdviseLarge is Advise for a slice of at least LargeMin bytes; a smaller
// one is left alone.
func AdviseLarge[T any](s []T) {
	if sizeOf(s) >= LargeMin {
		Advise(s)
	}
}

// sizeOf is the size of s's capacity in bytes.
func sizeOf[T any](s []T) uintptr {
	var zero T
	return uintptr(cap(s)) * unsafe.Sizeof(zero)
}

// Span returns the whole huge pages that hold the n bytes from start: the
// first one's address and the address just past the last.
func Span(start, n uintptr) (lo, hi uintptr) {
	lo = start &^ (Size - 1)
	hi = (start + n + Size - 1) &^ (Size - 1)
	return lo, hi
}
