// Package cli is twice's command line: the cobra commands, their options,
// the config file, and the exit codes. Each command has an options struct
// with its injected streams, clock, environment and clients, and a run
// function; NewCmd<Command>(f, runF) lets tests check flag parsing without
// running anything, and every command runs without a network or a terminal.
package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui"
)

// Main runs twice with args (without the program name) and returns the
// exit status. ctrl+c (SIGINT) and SIGTERM cancel the running command.
func Main(args []string, streams *IOStreams, env Env) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Execute(ctx, NewFactory(streams, env), args)
}

// Execute runs one command line with a factory and returns the exit
// status. Errors are printed to standard error, sanitized, as "twice: …".
func Execute(ctx context.Context, f *Factory, args []string) int {
	flush := f.redactOutput()
	defer flush()
	root := NewCmdRoot(f)
	root.SetArgs(args)
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	code := exitCode(err)
	var findings *FindingsError
	switch {
	case errors.As(err, &findings):
		// The findings were printed; say why the status is 3.
		fmt.Fprintf(f.IO.ErrOut, "twice: %s\n", findings.Error())
	case errors.Is(err, tui.ErrInterrupted):
		// ctrl+c in the interactive view: it quit, as asked; nothing to say.
		code = ExitInterrupted
	case isInterrupt(err) && ctx.Err() != nil:
		fmt.Fprintln(f.IO.ErrOut, "twice: interrupted")
		code = ExitInterrupted
	default:
		fmt.Fprintf(f.IO.ErrOut, "twice: %s\n", safetext.Block(f.redactor().String(err.Error())))
		if code == ExitUsage && cmd != nil {
			fmt.Fprintf(f.IO.ErrOut, "Run '%s --help' for usage.\n", cmd.CommandPath())
		}
	}
	return code
}

// NewCmdRoot builds the command tree.
func NewCmdRoot(f *Factory) *cobra.Command {
	home := &HomeOptions{runDeps: f.runDeps(), viewDeps: f.viewDeps(), HasCredentials: f.hasCredentials}
	root := &cobra.Command{
		Use:   "twice",
		Short: "Find the activities of a Dapr workflow run that may have run twice",
		Long: `twice reads a Dapr Workflow run's history (from Diagrid Catalyst, a saved file, or the
Dapr CLI), groups every attempt of an activity into its invocation, and flags the probable
duplicate side effects with their evidence. Payloads withheld at the organization's
data-sharing level are marked as withheld, never shown as empty.

With no command: the interactive view on a terminal (the runs of --project, or of the
configured project, when credentials exist; else the bundled demo histories); piped, the
list of demos.

Commands that reach Catalyst stop after --timeout (default 10m, or timeout: in
twice.yaml; 0 means no limit); in the interactive view the limit applies to each read.`,
		Example: `  twice show demo:payment-timeout
  twice show history.json
  twice show charge-7731 --app payments --project default
  twice scan --project default --since 24h --exit-status --fail-on high
  twice record charge-7731 --app payments -o charge-7731.json`,
		Args:          usageArgs(cobra.NoArgs),
		SilenceErrors: true,
		SilenceUsage:  true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHome(cmd.Context(), home)
		},
	}
	root.CompletionOptions.DisableDefaultCmd = true
	// twice --version prints what twice version does (cobra adds the flag
	// when Version is set; the template is the version line, escaped for
	// text/template).
	root.Version = f.Env.Version
	root.SetVersionTemplate(strings.NewReplacer("{{", "{{`{{`}}").Replace(versionLine(f)) + "\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &UsageError{Msg: err.Error()} })
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if _, err := f.colorEnabled(); err != nil {
			return err
		}
		f.Globals.TimeoutSet = cmd.Flags().Changed("timeout")
		if f.Globals.Timeout < 0 {
			return usagef("--timeout %s is negative: give a duration such as 30m, or 0 for no limit", f.Globals.Timeout)
		}
		if _, err := f.timeFormat(); err != nil {
			return err
		}
		_, err := levelFlag(f.Globals.DataSharingLevel)
		return err
	}

	pf := root.PersistentFlags()
	g := &f.Globals
	pf.StringVar(&g.Color, "color", "auto", "colour: auto, always or never (NO_COLOR with any value turns auto off)")
	pf.StringVar(&g.TimeFormat, "time-format", "", "times: relative or iso (default relative on a terminal, iso when piped)")
	pf.StringVar(&g.ConfigPath, "config", "", "config file, read whole (default $XDG_CONFIG_HOME/twice/twice.yaml, then ./twice.yaml over it; see twice trust)")
	pf.StringVar(&g.Endpoint, "endpoint", "", "Catalyst MCP endpoint URL (env CATALYST_MCP_URL)")
	pf.StringVar(&g.Org, "org", "", "Catalyst organization id")
	pf.StringVar(&g.TokenFile, "token-file", "", "file holding a Catalyst token (or set CATALYST_TOKEN; there is no token flag)")
	pf.StringVar(&g.DataSharingLevel, "data-sharing-level", "", "your organization's data-sharing level, when you know it: metadata or full (default: inferred)")
	pf.StringArrayVar(&g.SideEffect, "side-effect", nil, "treat activity `NAME` as having a side effect (repeatable)")
	pf.StringArrayVar(&g.ReadOnly, "read-only", nil, "treat activity `NAME` as read-only (repeatable)")
	pf.DurationVar(&g.Timeout, "timeout", DefaultTimeout, "stop a command's work with Catalyst after this long (0: no limit; config: timeout)")
	root.Flags().StringVarP(&home.Project, "project", "p", "", "open the interactive view on this Catalyst project's runs (default: the config's project)")
	root.Flags().StringVarP(&home.App, "app", "a", "", "with --project: only runs of this app id (default: the config's app)")
	root.Flags().BoolP("version", "v", false, "print twice's version (as twice version does)")
	root.Flags().DurationVar(&home.Refresh, "refresh", 0, "list the runs again this often while the run list is on screen, e.g. 30s (default: only on R); a running run's history is read again only when its row changed or it is on screen, at most every 5s")

	root.AddCommand(
		NewCmdShow(f, nil),
		NewCmdScan(f, nil),
		NewCmdDiff(f, nil),
		NewCmdRuns(f, nil),
		NewCmdRecord(f, nil),
		NewCmdDoctor(f, nil),
		NewCmdDemo(f, nil),
		NewCmdReview(f, nil),
		NewCmdTrust(f, nil),
		NewCmdUntrust(f, nil),
		NewCmdVersion(f),
	)
	return root
}

// usageArgs makes an argument check's error a usage error (exit 2).
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return &UsageError{Msg: err.Error()}
		}
		return nil
	}
}

// outputFormat is -o's value.
type outputFormat string

// Output formats.
const (
	outputText     outputFormat = "text"
	outputJSON     outputFormat = "json"
	outputJSONL    outputFormat = "jsonl"
	outputMarkdown outputFormat = "markdown"
	// outputMermaid is a Mermaid gantt chart of a run's timeline (show
	// --timeline) or of two runs compared (diff).
	outputMermaid outputFormat = "mermaid"
)

// parseOutput checks -o against the formats a command offers.
func parseOutput(v string, allowed ...outputFormat) (outputFormat, error) {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		if strings.EqualFold(v, string(a)) || (a == outputMarkdown && strings.EqualFold(v, "md")) {
			return a, nil
		}
		names[i] = string(a)
	}
	return "", usagef("-o %s is not an output format here: use %s", quote(v), strings.Join(names, ", "))
}
