package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// floorCommand measures the tokenizer floor of one file and prints its
// seconds.
func floorCommand(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return &usageError{"floor takes one file"}
	}
	d, tokens, err := floor(args[0])
	if err != nil {
		return err
	}
	if tokens == 0 {
		return fmt.Errorf("%s: empty file, nothing to tokenize", args[0])
	}
	_, err = fmt.Fprintf(stdout, "%.4f\n", d.Seconds())
	return err
}

// floor tokenizes the JSON in path to its end: the least work any streaming
// decoder must do. It opens the file, reads it through a 1 MiB buffer and
// calls jsontext's ReadToken until EOF, without checking duplicate names or
// UTF-8, and returns the time that took and the tokens read.
func floor(path string) (time.Duration, int, error) {
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
			return 0, tokens, fmt.Errorf("%s is not JSON (at byte %d): %w", path, dec.InputOffset(), err)
		}
		tokens++
	}
}
