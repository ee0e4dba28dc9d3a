package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/fixtures"
	"github.com/twice-cli/twice/tui/format"
)

// DemoOptions are twice demo list's inputs.
type DemoOptions struct {
	IO *IOStreams
}

// NewCmdDemo builds twice demo (with its list sub-command).
func NewCmdDemo(f *Factory, runF func(*DemoOptions) error) *cobra.Command {
	opts := &DemoOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "The bundled demo histories",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			return usagef("demo needs a sub-command: twice demo list")
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "Name the bundled demo histories and what each demonstrates",
		Long:  "Name the bundled demo histories and what each demonstrates. Open one with: twice show demo:NAME",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return writeDemoList(opts.IO.Out, opts.IO.width(0))
		},
	})
	return cmd
}

// writeDemoList prints each bundled demo with what it demonstrates,
// wrapped to width columns under its name (0: not wrapped, as when
// piped: one line per fact for tools).
func writeDemoList(w io.Writer, width int) error {
	demos := fixtures.Demos()
	var b strings.Builder
	fmt.Fprintf(&b, "Bundled demo histories (%d); open one with: twice show demo:NAME\n\n", len(demos))
	nameW := 0
	for _, d := range demos {
		nameW = max(nameW, format.Width(safetext.Line(d.Name)))
	}
	for _, d := range demos {
		name := safetext.Line(d.Name)
		desc := safetext.Line(d.Description)
		if d.Err != nil {
			desc = "cannot be read: " + safetext.Line(d.Err.Error())
		}
		writeHanging(&b, "  "+format.Pad(name, nameW)+"  ", desc, width)
		var facts []string
		if d.Format != "" {
			facts = append(facts, d.Format.Description())
		}
		if d.Level != "" {
			facts = append(facts, "recorded at the "+safetext.Line(string(d.Level))+" data-sharing level")
		}
		if d.AppID != "" || d.RunID != "" {
			facts = append(facts, "app "+safetext.Line(d.AppID)+", run "+safetext.Line(d.RunID))
		}
		if len(facts) > 0 {
			writeHanging(&b, "  "+strings.Repeat(" ", nameW)+"  ", strings.Join(facts, "; "), width)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeHanging writes safe text after lead, wrapped at width columns with
// its continuation lines under the text's start (no wrap when width is 0
// or leaves the text too little room).
func writeHanging(b *strings.Builder, lead, text string, width int) {
	indent := format.Width(lead)
	lines := []string{text}
	if width > 0 && width-indent >= 20 {
		lines = format.Wrap(text, width-indent)
	}
	for i, l := range lines {
		if i == 0 {
			b.WriteString(lead)
		} else {
			b.WriteString(strings.Repeat(" ", indent))
		}
		b.WriteString(strings.TrimRight(l, " "))
		b.WriteByte('\n')
	}
}
