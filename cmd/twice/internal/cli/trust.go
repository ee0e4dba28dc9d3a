package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/cmd/twice/internal/trust"
)

// TrustOptions are the inputs of twice trust and twice untrust.
type TrustOptions struct {
	IO *IOStreams
	// Env says where the config folders are, and the clock.
	Env Env
	// Path is the folder config to trust, or its folder ("": twice.yaml in
	// the current folder).
	Path string
	// Revoke removes the trust instead (twice untrust).
	Revoke bool
}

// NewCmdTrust builds twice trust.
func NewCmdTrust(f *Factory, runF func(*TrustOptions) error) *cobra.Command {
	opts := &TrustOptions{IO: f.IO, Env: f.Env}
	return &cobra.Command{
		Use:   "trust [PATH]",
		Short: "Let this folder's twice.yaml choose the endpoint, organization, token and console",
		Long: `A twice.yaml in the current folder may come with the repository you are in, so twice
reads from it only what cannot take your token or run a command (project, app, source,
the analysis and limits) and ignores endpoint, org, token_file, token_command and console,
saying so. twice trust records that you trust the file as it is now (its path and the
sha256 of its content, in your own config folder); any edit of the file revokes that.
PATH is the file or its folder (default: twice.yaml here). twice untrust removes it.`,
		Example: `  twice trust
  twice trust ../payments/twice.yaml
  twice untrust`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Path = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return runTrust(opts)
		},
	}
}

// NewCmdUntrust builds twice untrust.
func NewCmdUntrust(f *Factory, runF func(*TrustOptions) error) *cobra.Command {
	opts := &TrustOptions{IO: f.IO, Env: f.Env, Revoke: true}
	return &cobra.Command{
		Use:   "untrust [PATH]",
		Short: "Stop trusting a folder's twice.yaml (see twice trust)",
		Args:  usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Path = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return runTrust(opts)
		},
	}
}

// trustTarget is the absolute path of the folder config PATH names.
func trustTarget(env Env, path string) (string, error) {
	if path == "" {
		return folderConfigPath(env), nil
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(folderConfigPath(env)), path)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, ConfigFileName)
	}
	return filepath.Abs(path)
}

func runTrust(opts *TrustOptions) error {
	env, out := opts.Env, opts.IO.Out
	path, err := trustTarget(env, opts.Path)
	if err != nil {
		return err
	}
	store := trustStore(env)
	if opts.Revoke {
		had, err := store.Revoke(path)
		if err != nil {
			return err
		}
		if !had {
			fmt.Fprintf(out, "%s was not trusted; nothing changed.\n", safetext.Line(path))
			return nil
		}
		fmt.Fprintf(out, "No longer trusted: %s (twice ignores its %s again).\n", safetext.Line(path), strings.Join(trustedKeys, ", "))
		return nil
	}
	if dir := userConfigDir(env); dir != "" && sameFile(path, filepath.Join(dir, ConfigFileName)) {
		return fmt.Errorf("%s is your own config: twice reads all of it already, nothing to trust", path)
	}
	data, err := readConfigFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("there is no %s: nothing to trust (twice trust PATH names another file or folder)", path)
	}
	if err != nil {
		return err
	}
	cfg, keys, err := parseConfig(data)
	if err != nil {
		return fmt.Errorf("config %s: %w; fix it before trusting it", path, err)
	}
	if err := store.Trust(path, data, env.now()); err != nil {
		return err
	}
	sum := trust.Sum(data)
	fmt.Fprintf(out, "Trusted %s (sha256 %s…).\n", safetext.Line(path), sum[:12])
	var uses []string
	for _, k := range keys {
		if slices.Contains(trustedKeys, k) {
			uses = append(uses, k+" "+safetext.Line(trustedValue(cfg, k)))
		}
	}
	if len(uses) > 0 {
		fmt.Fprintf(out, "twice now uses its %s.\n", strings.Join(uses, "; "))
	}
	fmt.Fprintf(out, "An edit of the file revokes this; twice untrust removes it. Records: %s\n", safetext.Line(store.Path))
	return nil
}

// trustedValue is what a trusted key holds, as twice trust shows it.
func trustedValue(c *Config, key string) string {
	switch key {
	case "endpoint":
		return c.Endpoint
	case "org":
		return c.Org
	case "token_file":
		return c.TokenFile
	case "console":
		return c.Console
	case "token_command":
		if c.TokenCommand.Shell {
			return "/bin/sh -c " + quote(strings.Join(c.TokenCommand.Argv, " "))
		}
		return strings.Join(c.TokenCommand.Argv, " ")
	}
	return ""
}
