//go:build !unix

package regfile

import "os"

// openNoBlock opens name read-only (named pipes are not files on these
// systems).
func openNoBlock(name string) (*os.File, error) {
	return os.Open(name)
}
