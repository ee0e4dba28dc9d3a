package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/twice-cli/twice/catalyst/live"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/cmd/twice/internal/trust"
	"github.com/twice-cli/twice/fixtures"
)

// DoctorOptions are twice doctor's inputs.
type DoctorOptions struct {
	IO     *IOStreams
	Config func() (*Config, error)
	Live   liveOpener
	// Version is twice's version.
	Version string
	// ConfigPaths are where twice looks for a config file
	// (configPaths).
	ConfigPaths func() []string
	// Timeout is the limit on a command's network work (Factory.timeout).
	Timeout func() (time.Duration, error)
}

// NewCmdDoctor builds twice doctor.
func NewCmdDoctor(f *Factory, runF func(*DoctorOptions) error) *cobra.Command {
	opts := &DoctorOptions{IO: f.IO, Config: f.Config, Live: f.live, Version: f.Env.Version,
		ConfigPaths: func() []string { paths, _ := configPaths(f.Globals.ConfigPath, f.Env); return paths }, Timeout: f.timeout}
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check the config, credentials and the Catalyst endpoint",
		Long: `Check what twice would use to read from Catalyst, in words: the config file, where the
token comes from (never the token), whether the endpoint answers and accepts it, and
the tools twice calls with their argument names. Exits 4 when not authenticated and
1 when anything else is wrong.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runDoctor(cmd.Context(), opts)
		},
	}
}

func runDoctor(ctx context.Context, opts *DoctorOptions) error {
	w := opts.IO.Out
	fmt.Fprintf(w, "twice %s (%s, %s/%s)\n", safetext.Line(opts.Version), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	cfg, err := opts.Config()
	if err != nil {
		fmt.Fprintf(w, "config: %s\n", safetext.Line(err.Error()))
		return errors.New("the config file is malformed: fix it (see the line above) and run twice doctor again")
	}
	writeConfigFiles(w, opts.ConfigPaths, cfg)
	fmt.Fprintf(w, "project: %s; app: %s\n", orUnset(cfg.Project), orUnset(cfg.App))
	fmt.Fprintf(w, "bundled demos: %d (twice demo list)\n", len(fixtures.Demos()))
	writeLimits(w, opts.Timeout, cfg)
	lc, err := opts.Live(nil, nil)
	if err != nil {
		fmt.Fprintf(w, "live client: %s\n", safetext.Line(err.Error()))
		const fix = "the live client cannot be set up: fix the endpoint (--endpoint, CATALYST_MCP_URL or endpoint in twice.yaml)"
		var usage *UsageError
		if errors.As(err, &usage) {
			return &UsageError{Msg: fix}
		}
		return errors.New(fix)
	}
	defer lc.Close()
	rep := lc.Doctor(ctx)
	writeDoctor(w, rep)
	if rep.NotAuthenticated {
		writeTokenHelp(w)
	}
	switch {
	case ctx.Err() != nil:
		return errInterrupted
	case rep.NotAuthenticated && rep.Reachable:
		return fmt.Errorf("%w: Catalyst did not accept the credential (%s): provide a current token through CATALYST_TOKEN, token_file or token_command in twice.yaml",
			live.ErrNotAuthenticated, rep.TokenSource)
	case rep.NotAuthenticated:
		return fmt.Errorf("%w: no usable credential: set %s, or token_file or token_command in twice.yaml (where a token comes from: above)", live.ErrNotAuthenticated, live.EnvToken)
	case !rep.OK():
		return fmt.Errorf("%d problem(s) found (listed above)", len(rep.Problems))
	}
	return nil
}

// writeTokenHelp says, when twice has no usable credential, where one can
// come from, what twice cannot do about it, and what works without one.
func writeTokenHelp(w io.Writer) {
	fmt.Fprintf(w, "where a token comes from: %s\n", live.TokenWhere)
	fmt.Fprintf(w, "what twice cannot do: %s; ask your Catalyst organization how it issues tokens for the MCP server to tools\n", live.NoLogin)
	fmt.Fprintln(w, "without a token: saved histories (twice show FILE), the Dapr CLI's JSON (dapr workflow history ID -o json | twice show -), the demos (twice demo list) and twice review work offline")
}

// writeConfigFiles prints which config files were read and, for the
// folder's, whether it is trusted and what twice ignored in it.
func writeConfigFiles(w io.Writer, lookedIn func() []string, cfg *Config) {
	if cfg.Path == "" && cfg.Folder == nil {
		paths := lookedIn()
		fmt.Fprintf(w, "config: none found (looked for %s); using defaults\n", safetext.Line(joinPaths(paths)))
		return
	}
	if cfg.Path != "" {
		fmt.Fprintf(w, "config: %s\n", safetext.Line(cfg.Path))
	}
	fc := cfg.Folder
	if fc == nil {
		return
	}
	switch {
	case fc.Trust == trust.Trusted:
		fmt.Fprintf(w, "folder config: %s, trusted (twice trust)\n", safetext.Line(fc.Path))
	case len(fc.Ignored) == 0:
		fmt.Fprintf(w, "folder config: %s (it sets none of %s, which only a trusted file may)\n", safetext.Line(fc.Path), strings.Join(trustedKeys, ", "))
	default:
		why := "not trusted"
		if fc.Trust == trust.Changed {
			why = "edited since you trusted it"
		}
		fmt.Fprintf(w, "folder config: %s, %s: ignored %s (twice trust to use them; an edit of the file revokes it)\n",
			safetext.Line(fc.Path), why, strings.Join(fc.Ignored, ", "))
	}
}

// writeLimits prints the limits live reads run under.
func writeLimits(w io.Writer, limit func() (time.Duration, error), cfg *Config) {
	timeout := "none"
	if d, err := limit(); err == nil && d > 0 {
		timeout = d.String()
	}
	request := live.DefaultRequestTimeout
	if cfg.RequestTimeout.Duration > 0 {
		request = cfg.RequestTimeout.Duration
	}
	body := int64(live.DefaultMaxBodyBytes)
	if cfg.MaxBodyBytes > 0 {
		body = cfg.MaxBodyBytes
	}
	fmt.Fprintf(w, "limits: %s per command (--timeout, timeout), %s per request (request_timeout), answers up to %d bytes (max_body_bytes)\n",
		timeout, request, body)
}

// writeDoctor prints the live client's report, one fact per line. The
// advice that ends an error finding no token is left to writeTokenHelp's
// lines.
func writeDoctor(w io.Writer, rep live.DoctorReport) {
	for _, l := range rep.Lines() {
		fmt.Fprintln(w, safetext.Line(strings.TrimSuffix(l, ". "+live.TokenAdvice)))
	}
}

func orUnset(s string) string {
	if s == "" {
		return "not set"
	}
	return safetext.Line(s)
}

func joinPaths(paths []string) string {
	out := ""
	for i, p := range paths {
		if i > 0 {
			out += ", then "
		}
		out += p
	}
	return out
}
