package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/fixtures"
)

// RecordOptions are twice record's inputs.
type RecordOptions struct {
	IO     *IOStreams
	Now    func() time.Time
	Config func() (*Config, error)
	Live   liveOpener
	// Version is twice's version, recorded as the file's producer.
	Version string
	// KnownSecrets are the credential values twice can see, which the
	// file must not hold (Factory.knownSecrets).
	KnownSecrets func() []string

	RunID string
	App   string
	// Project holds the run.
	Project string
	// Path is the file to write (-o).
	Path string
	// RedactPayloads removes every payload before saving.
	RedactPayloads bool
	// Description says what the recording shows.
	Description string
	// Force replaces an existing file.
	Force bool
}

// NewCmdRecord builds twice record.
func NewCmdRecord(f *Factory, runF func(*RecordOptions) error) *cobra.Command {
	opts := &RecordOptions{IO: f.IO, Now: f.Env.now, Config: f.Config, Live: f.live, Version: f.Env.Version, KnownSecrets: f.knownSecrets}
	cmd := &cobra.Command{
		Use:   "record RUN_ID --app APP -o FILE",
		Short: "Save a Catalyst run's history to a file for offline replay",
		Long: `Read a run's history from Catalyst and save it as a twice saved history: the
history exactly as Catalyst returned it, with where it came from, the data-sharing
level, and a sha256 checksum. The file is written with mode 0600 through a
temporary file and an atomic rename, and twice refuses to save anything that looks
like a credential. --redact-payloads removes every payload and records each removal.

Replay it anywhere with: twice show FILE`,
		Example: `  twice record charge-7731 --app payments --project default -o charge-7731.json
  twice record charge-7731 --app payments -o ticket-1234.json --redact-payloads`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.RunID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runRecord(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.App, "app", "a", "", "the run's app id (default: the config's app)")
	fl.StringVarP(&opts.Project, "project", "p", "", "the run's Catalyst project (default: the config's project)")
	fl.StringVarP(&opts.Path, "output", "o", "", "the file to write (required)")
	fl.BoolVar(&opts.RedactPayloads, "redact-payloads", false, "remove every input, output and custom status before saving")
	fl.StringVar(&opts.Description, "description", "", "what this recording shows (stored in the file)")
	fl.BoolVar(&opts.Force, "force", false, "replace FILE if it exists")
	return cmd
}

func runRecord(ctx context.Context, opts *RecordOptions) error {
	if strings.TrimSpace(opts.Path) == "" {
		return usagef("give the file to write: -o FILE")
	}
	if opts.Path == "-" {
		return usagef("record writes a file (-o FILE), not standard output: a saved history is written atomically with mode 0600")
	}
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	app, project := first(opts.App, cfg.App), first(opts.Project, cfg.Project)
	if app == "" {
		return usagef("give the run's app: --app APP (or set app in twice.yaml)")
	}
	// Said before anything is read; Save decides again, atomically.
	if !opts.Force {
		if _, err := os.Lstat(opts.Path); err == nil {
			return existsError(opts.Path)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot check %s: %w", quote(opts.Path), err)
		}
	} else if err := fixtures.CheckReplaceable(opts.Path); err != nil {
		return err
	}
	lc, err := opts.Live(nil, nil)
	if err != nil {
		return err
	}
	defer lc.Close()
	ref := catalyst.RunRef{ID: opts.RunID, AppID: app, Project: project}
	got, err := lc.Fetch(ctx, ref)
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	rec := fixtures.Recording{
		History: got.Raw,
		Format:  got.History.Format,
		Source: fixtures.Source{Surface: catalyst.SurfaceCatalystMCP, Endpoint: got.Endpoint,
			Project: project, AppID: app, RunID: opts.RunID},
		Level:          got.DataSharing.Level,
		LevelInferred:  got.DataSharing.Inferred,
		Description:    opts.Description,
		CapturedAt:     opts.Now(),
		Producer:       "twice " + opts.Version,
		RedactPayloads: opts.RedactPayloads,
		// The token the read used, whatever its source (a token_command
		// too), besides those twice can see.
		Secrets: append(opts.KnownSecrets(), got.Credential.Secret()),
		Replace: opts.Force,
	}
	if err := fixtures.Save(opts.Path, rec); err != nil {
		var exists *fixtures.ExistsError
		if errors.As(err, &exists) {
			return existsError(opts.Path)
		}
		return err
	}
	what := "payloads as Catalyst returned them"
	if opts.RedactPayloads {
		what = "payloads redacted"
	}
	fmt.Fprintf(opts.IO.Out, "Saved run %s of app %s (%d events, data-sharing level %s, %s) to %s.\nReplay it offline: twice show %s\n",
		safetext.Line(opts.RunID), safetext.Line(app), got.History.Len(), safetext.Line(got.DataSharing.LevelText()), what,
		safetext.Line(opts.Path), shellWord(opts.Path))
	return nil
}

// shellWord quotes a path for a command line to copy.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:+@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(safetext.Line(s), "'", `'\''`) + "'"
}

// existsError says that record will not replace path without --force.
func existsError(path string) error {
	return fmt.Errorf("%s exists: choose another file, or give --force to replace it", quote(path))
}
