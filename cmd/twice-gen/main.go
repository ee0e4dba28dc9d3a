// Command twice-gen writes large, realistic Dapr Workflow histories for
// benchmarks, and measures the tokenizer floor the benchmark targets are
// relative to.
//
//	twice-gen -n 1000000 -format protojson -o FILE [-seed 1] [-level metadata]
//	          [-inner catalyst] [-legacy] [-router]
//	twice-gen floor [-tokenizer twice|jsontext] FILE
//
// Formats: protojson, catalyst, dapr-cli, fixture (a twice saved history
// wrapping -inner). "floor" reads FILE to the end with a streaming
// tokenizer and prints the seconds it took: twice's own scanner checking
// the syntax (the default, the fastest at hand), or jsontext's ReadToken.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// run runs one command line and returns its exit code.
func run(args []string, stdout, stderr io.Writer) int {
	var err error
	if len(args) > 0 && args[0] == "floor" {
		err = floorCommand(args[1:], stdout)
	} else {
		err = generateCommand(args, stdout, stderr)
	}
	var usage *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "twice-gen: %v\n%s", err, usageText)
		return exitUsage
	case errors.Is(err, errHelp):
		fmt.Fprint(stdout, usageText)
		return exitOK
	}
	fmt.Fprintf(stderr, "twice-gen: %v\n", err)
	return exitError
}

const usageText = `usage:
  twice-gen -n EVENTS [-format F] [-o FILE] [-seed N] [-level L] [-inner F] [-legacy] [-router]
      writes a generated history (to stdout without -o or with -o -)
      formats: protojson (default), catalyst, dapr-cli, fixture
  twice-gen floor [-tokenizer twice|jsontext] FILE
      reads FILE to the end with a streaming tokenizer and prints the
      seconds it took: twice's own scanner (default) or jsontext
`

// usageError is a command line twice-gen cannot run (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

var errHelp = errors.New("help requested")
