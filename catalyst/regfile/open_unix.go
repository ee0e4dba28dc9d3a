//go:build unix

package regfile

import (
	"os"
	"syscall"
)

// openNoBlock opens name read-only with O_NONBLOCK, so a named pipe with
// no writer does not hold the open; reads of a regular file are not
// affected by the flag.
func openNoBlock(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
