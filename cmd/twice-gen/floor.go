package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/twice-cli/twice/catalyst/jsonscan"
)

// Tokenizers the floor can be measured with.
const (
	// tokenizerTwice is twice's own streaming scanner (catalyst/jsonscan)
	// checking the document's syntax to its end: the fastest streaming
	// tokenizer at hand, so the strictest floor, and the bench's.
	tokenizerTwice = "twice"
	// tokenizerJSONText is jsontext's ReadToken to EOF, a widely used
	// streaming tokenizer, for reference.
	tokenizerJSONText = "jsontext"
)

// floorCommand measures the tokenizer floor of one file and prints its
// seconds.
func floorCommand(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("twice-gen floor", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	tokenizer := fs.String("tokenizer", tokenizerTwice, "")
	if err := fs.Parse(args); err != nil {
		return &usageError{err.Error()}
	}
	if fs.NArg() != 1 {
		return &usageError{"floor takes one file"}
	}
	path := fs.Arg(0)
	var (
		d    time.Duration
		read int64
		err  error
	)
	switch *tokenizer {
	case tokenizerTwice:
		d, read, err = floorTwice(path)
	case tokenizerJSONText:
		var tokens int
		d, tokens, err = floorJSONText(path)
		read = int64(tokens)
	default:
		return &usageError{fmt.Sprintf("unknown tokenizer %q (twice, jsontext)", *tokenizer)}
	}
	if err != nil {
		return err
	}
	if read == 0 {
		return fmt.Errorf("%s: empty file, nothing to tokenize", path)
	}
	_, err = fmt.Fprintf(stdout, "%.4f\n", d.Seconds())
	return err
}

// floorTwice reads the JSON document in path to its end with twice's
// scanner, checking its syntax and nothing else, and returns the time that
// took and the bytes read.
func floorTwice(path string) (time.Duration, int64, error) {
	start := time.Now()
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sc := jsonscan.New(f)
	if k, err := sc.PeekKind(); err != nil || k == 0 {
		return 0, 0, notJSON(path, sc.Offset(), err)
	}
	if err := sc.SkipValue(); err != nil {
		return 0, 0, notJSON(path, sc.Offset(), err)
	}
	if err := sc.End(); err != nil {
		return 0, 0, notJSON(path, sc.Offset(), err)
	}
	return time.Since(start), sc.Offset(), nil
}

// floorJSONText tokenizes the JSON in path to its end with jsontext: it
// opens the file, reads it through a 1 MiB buffer and calls ReadToken until
// EOF, without checking duplicate names or UTF-8, and returns the time that
// took and the tokens read.
func floorJSONText(path string) (time.Duration, int, error) {
	start := time.Now()
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	dec := jsontext.NewDecoder(bufio.NewReaderSize(f, 1<<20),
		jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	tokens := 0
	for {
		_, err := dec.ReadToken()
		if errors.Is(err, io.EOF) {
			return time.Since(start), tokens, nil
		}
		if err != nil {
			return 0, tokens, notJSON(path, dec.InputOffset(), err)
		}
		tokens++
	}
}

// notJSON is the error for a file that does not tokenize.
func notJSON(path string, offset int64, err error) error {
	if err == nil {
		return fmt.Errorf("%s is not JSON: nothing in it", path)
	}
	return fmt.Errorf("%s is not JSON (at byte %d): %w", path, offset, err)
}
