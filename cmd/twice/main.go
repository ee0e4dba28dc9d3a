// Command twice finds the activities of a Dapr workflow run that may have
// run twice: it reads a run's history from Diagrid Catalyst, a saved file or
// the Dapr CLI, groups every attempt of an activity into its invocation, and
// flags the probable duplicate side effects with their evidence.
package main

import (
	"os"

	"github.com/twice-cli/twice/cmd/twice/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.SystemStreams(), cli.OSEnv(version)))
}
