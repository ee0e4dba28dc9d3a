package cli

import (
	"github.com/twice-cli/twice/catalyst/secret"
)

// redactor returns the command's redactor (one per factory, made on first
// use when the factory was not made by NewFactory).
func (f *Factory) redactor() *secret.Redactor {
	if f.redact == nil {
		f.redact = secret.New()
	}
	return f.redact
}

// redactOutput puts the redactor between the command and its standard
// output and standard error, so that nothing a command prints holds the
// token, whatever built the text; it returns what passes on what the
// redactor held back, called when the command ends. The streams as given
// stay for the interactive view and for asking whether a stream is a
// terminal. The factory keeps the wrapped streams (a read abandoned at
// ctrl+c may still use them).
func (f *Factory) redactOutput() (flush func()) {
	if f.streams == nil {
		f.streams = f.IO
		wrapped := *f.IO
		f.out = f.redactor().Writer(f.IO.Out)
		f.errOut = f.redactor().Writer(f.IO.ErrOut)
		wrapped.Out, wrapped.ErrOut = f.out, f.errOut
		f.IO = &wrapped
	}
	return func() {
		_ = f.out.Flush()
		_ = f.errOut.Flush()
	}
}

// terminal returns the streams as given: the terminal the interactive view
// draws on, unwrapped.
func (f *Factory) terminal() *IOStreams {
	if f.streams != nil {
		return f.streams
	}
	return f.IO
}
