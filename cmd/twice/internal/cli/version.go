package cli

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/twice-cli/twice/catalyst/safetext"
)

// NewCmdVersion builds twice version.
func NewCmdVersion(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print twice's version",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintf(f.IO.Out, "twice %s (%s, %s/%s)\n", safetext.Line(f.Env.Version), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}
