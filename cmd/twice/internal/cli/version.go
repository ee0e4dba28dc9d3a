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
			_, err := fmt.Fprintln(f.IO.Out, versionLine(f))
			return err
		},
	}
}

// versionLine is what twice version and twice --version print: the
// version, the Go release and the platform.
func versionLine(f *Factory) string {
	return fmt.Sprintf("twice %s (%s, %s/%s)", safetext.Line(f.Env.Version), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
