//go:build !linux

package hugepage

// advise does nothing where transparent huge pages are not a Linux
// madvise away.
func advise(addr, n uintptr) {}
