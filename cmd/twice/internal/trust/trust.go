// Package trust keeps the user's record of the folder configs they trust,
// as direnv's allow and mise's trust do: a file in the user's own config
// folder listing, for each trusted twice.yaml, its absolute path and the
// sha256 of its content. A record holds for that content only: an edit of
// the file revokes it, and twice asks again.
//
// Why: any repository a user runs twice in can ship a twice.yaml. What it
// may set without trust is what cannot take the token or run a command
// (project, app, source, the analysis settings); the command line reads
// the rest (the endpoint, the organization, the token file and command,
// the console) only from a file recorded here.
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/twice-cli/twice/catalyst/regfile"
)

// FileName is the trust store's name in the user's config folder.
const FileName = "trusted.json"

// maxStoreBytes bounds the store.
const maxStoreBytes = 1 << 20

// Status is what the store says of a file.
type Status int

// The statuses.
const (
	// Untrusted: no record names the file.
	Untrusted Status = iota
	// Trusted: a record names the file with this content.
	Trusted
	// Changed: a record names the file, with other content: it was
	// trusted, then edited.
	Changed
)

// Record is one trusted file.
type Record struct {
	// Path is the file's absolute, cleaned path (links not resolved: the
	// file is trusted where it was read).
	Path string `json:"path"`
	// SHA256 is the hex sha256 of the content trusted.
	SHA256 string `json:"sha256"`
	// At is when it was trusted.
	At time.Time `json:"trusted_at"`
}

// document is the store's content.
type document struct {
	Version int      `json:"version"`
	Files   []Record `json:"files"`
}

// Store is the trust store: the file at Path (in the user's config
// folder). A missing file trusts nothing.
type Store struct {
	Path string
}

// Sum is the hex sha256 a record keeps of a file's content.
func Sum(content []byte) string {
	s := sha256.Sum256(content)
	return hex.EncodeToString(s[:])
}

// Check says whether the file at path (absolute) with this content is
// trusted. A store that cannot be read is an error: nothing is trusted.
func (s Store) Check(path string, content []byte) (Status, error) {
	doc, err := s.read()
	if err != nil {
		return Untrusted, err
	}
	sum, status := Sum(content), Untrusted
	for _, r := range doc.Files {
		if r.Path != path {
			continue
		}
		if r.SHA256 == sum {
			return Trusted, nil
		}
		status = Changed
	}
	return status, nil
}

// Trust records the file at path (absolute) with this content as trusted,
// replacing any record of that path.
func (s Store) Trust(path string, content []byte, now time.Time) error {
	doc, err := s.read()
	if err != nil {
		return err
	}
	doc.Files = slices.DeleteFunc(doc.Files, func(r Record) bool { return r.Path == path })
	doc.Files = append(doc.Files, Record{Path: path, SHA256: Sum(content), At: now.UTC()})
	return s.write(doc)
}

// Revoke removes every record of path and reports whether there was one.
func (s Store) Revoke(path string) (bool, error) {
	doc, err := s.read()
	if err != nil {
		return false, err
	}
	n := len(doc.Files)
	doc.Files = slices.DeleteFunc(doc.Files, func(r Record) bool { return r.Path == path })
	if len(doc.Files) == n {
		return false, nil
	}
	return true, s.write(doc)
}

func (s Store) read() (document, error) {
	if s.Path == "" {
		return document{}, nil
	}
	data, err := regfile.ReadFile(s.Path, maxStoreBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return document{Version: 1}, nil
	}
	if err != nil {
		return document{}, fmt.Errorf("the trust records %s cannot be read: %w", s.Path, err)
	}
	var doc document
	if err := json.Unmarshal(data, &doc); err != nil || doc.Version != 1 {
		return document{}, fmt.Errorf("the trust records %s are not twice's (version 1 JSON): move the file away and trust the folders again", s.Path)
	}
	return doc, nil
}

// write replaces the store at once (a temporary file renamed over it),
// readable by the user only.
func (s Store) write(doc document) error {
	if s.Path == "" {
		return errors.New("there is no user config folder to keep trust records in: set HOME or XDG_CONFIG_HOME")
	}
	doc.Version = 1
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot make %s for the trust records: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".trusted-*.json")
	if err != nil {
		return fmt.Errorf("cannot write the trust records in %s: %w", dir, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write the trust records %s: %w", s.Path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write the trust records %s: %w", s.Path, err)
	}
	if err := os.Rename(tmp.Name(), s.Path); err != nil {
		return fmt.Errorf("cannot write the trust records %s: %w", s.Path, err)
	}
	return nil
}
