// Package regfile opens and reads files a user or a repository names, and
// only regular ones: a named pipe, a device (a link to /dev/zero), a
// socket or a folder is refused, never read. What is checked is the file
// opened, not the name (a name swapped between a check and the open is
// caught), and a read stops at its cap whatever the file's size said.
//
// It is twice's own, shared by the command line (config, trust records,
// history files) and the code review (source files); not a library.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError says that a name is not a regular file and what it is.
type NotRegularError struct {
	// Path is the name as given.
	Path string
	// Mode is the type of what the name opened.
	Mode fs.FileMode
}

// Error names the file and what it is instead.
func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: twice reads only regular files", e.Path, Kind(e.Mode))
}

// TooLargeError says that a file holds more than a read allowed.
type TooLargeError struct {
	Path string
	// Max is the cap, in bytes.
	Max int64
}

// Error names the file and the cap.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes", e.Path, e.Max)
}

// Kind words a file's type: "a named pipe (FIFO)", "a device", "a folder".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

// Open opens name for reading if what it names (after links) is a regular
// file. It never waits on a named pipe: the file is opened without
// blocking, then checked. Any other type is a *NotRegularError.
func Open(name string) (*os.File, error) {
	f, err := openNoBlock(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: name, Mode: st.Mode().Type()}
	}
	return f, nil
}

// ReadFile reads name, a regular file, whole: more than max bytes is a
// *TooLargeError, whatever its size said when it was opened (a file that
// grows while read stops at max+1 bytes).
func ReadFile(name string, max int64) ([]byte, error) {
	f, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, name, max)
}

// ReadAll reads r to its end, up to max bytes: more is a *TooLargeError
// naming name. It never reads more than max+1 bytes.
func ReadAll(r io.Reader, name string, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{Path: name, Max: max}
	}
	return data, nil
}

// IsNotRegular reports whether err says a name is not a regular file.
func IsNotRegular(err error) bool {
	var nr *NotRegularError
	return errors.As(err, &nr)
}
