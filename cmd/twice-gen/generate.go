package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/fixtures/gen"
)

// generateCommand parses the generator's flags and writes the history.
func generateCommand(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("twice-gen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	events := fs.Int("n", 0, "number of events (at least 3)")
	format := fs.String("format", "protojson", "protojson, catalyst, dapr-cli or fixture")
	out := fs.String("o", "-", "output file (- for stdout)")
	seed := fs.Int64("seed", 1, "seed: the same seed writes the same history")
	level := fs.String("level", "", `data-sharing level; any but "" and "full" withholds payloads`)
	inner := fs.String("inner", "catalyst", "the format a fixture wraps")
	legacy := fs.Bool("legacy", false, "protojson with Dapr ≤1.17 keys")
	router := fs.Bool("router", false, "write the TaskRouter on action events")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return errHelp
		}
		return &usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return &usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	if *events == 0 {
		return &usageError{"-n is required"}
	}
	for _, f := range []struct{ flag, value string }{{"-format", *format}, {"-inner", *inner}} {
		switch f.value {
		case "protojson", "catalyst", "dapr-cli", "fixture":
		default:
			return &usageError{fmt.Sprintf("%s %q: use protojson, catalyst, dapr-cli or fixture", f.flag, f.value)}
		}
	}
	opts := gen.Options{
		Events: *events, Seed: *seed, Format: formatOf(*format), Inner: formatOf(*inner),
		Level: catalyst.Level(*level), LegacyKeys: *legacy, Router: *router,
	}
	if err := opts.Validate(); err != nil {
		return &usageError{strings.TrimPrefix(err.Error(), "generate: ")}
	}
	if *out == "-" {
		w := bufio.NewWriterSize(stdout, 1<<20)
		if err := gen.Write(w, opts); err != nil {
			return err
		}
		return w.Flush()
	}
	return writeFile(*out, opts)
}

// formatOf maps a format name of the command line to the model's; "fixture"
// is short for "twice-fixture". Unknown names pass through for gen to reject.
func formatOf(name string) catalyst.Format {
	if name == "fixture" {
		return catalyst.FormatFixture
	}
	return catalyst.Format(name)
}

// writeFile writes the history to a temporary file next to path and renames
// it into place only when complete, so a failed run leaves no partial file
// and an existing file intact.
func writeFile(path string, opts gen.Options) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := gen.Write(tmp, opts); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}
