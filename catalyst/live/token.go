package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/catalyst/secret"
)

// Environment variable names the command line reads (the client reads none).
const (
	// EnvToken holds a Catalyst bearer token.
	EnvToken = "CATALYST_TOKEN"
	// EnvEndpoint holds the MCP endpoint URL.
	EnvEndpoint = "CATALYST_MCP_URL"
)

// DefaultTokenCommandTimeout bounds a token_command.
const DefaultTokenCommandTimeout = 10 * time.Second

// ErrNotAuthenticated reports that no credential was found, or that Catalyst
// did not accept it. The command line maps it to exit code 4.
var ErrNotAuthenticated = errors.New("not authenticated with Catalyst")

// TokenWhere says where twice takes a Catalyst token from: every error
// that finds none, and twice doctor, say it.
const TokenWhere = "give twice a bearer token for the Catalyst MCP server that you already hold: in " + EnvToken +
	", in a token_file (mode 0600), or printed by a token_command (a program such as a password manager) in twice.yaml"

// NoLogin says what twice cannot do about a token: it has no OAuth client
// of its own, so it cannot log anyone in (README, "OAuth").
const NoLogin = "twice cannot log you in: Catalyst's MCP server issues tokens through OAuth only to clients Diagrid has registered, and twice has no client id of its own"

// TokenAdvice ends every error that finds no token: what twice cannot do,
// and where a token can come from.
const TokenAdvice = NoLogin + "; " + TokenWhere + ". twice doctor shows what it finds"

// errNoToken is what a source returns when it holds no token and the next
// source should be tried.
var errNoToken = errors.New("no token")

// Token is a bearer token and where it came from. Printing a Token (with
// any fmt verb) shows only where it came from, never the value.
type Token struct {
	value string
	// From says where the token came from, e.g. "environment variable
	// CATALYST_TOKEN"; it never holds the token.
	From string
}

// String describes the token without revealing it.
func (t Token) String() string {
	if t.value == "" {
		return "no token"
	}
	return "token from " + t.From
}

// GoString describes the token without revealing it.
func (t Token) GoString() string { return "live.Token{From: " + fmt.Sprintf("%q", t.From) + "}" }

// IsZero reports whether there is no token.
func (t Token) IsZero() bool { return t.value == "" }

// Secret returns the token's value, for checks that must refuse to store
// or show it (fixtures.Recording.Secrets). Never print or log it.
func (t Token) Secret() string { return t.value }

// TokenSource yields a Catalyst bearer token.
type TokenSource interface {
	// Token returns the token. An error wrapping ErrNotAuthenticated means
	// the source holds none.
	Token(ctx context.Context) (Token, error)
	// Describe says where the source looks, for twice doctor ("environment
	// variable CATALYST_TOKEN"); never the token.
	Describe() string
}

// TokenOptions says where TokenSources looks for a token.
type TokenOptions struct {
	// LookupEnv reads the environment (os.LookupEnv in the command line);
	// nil skips the environment.
	LookupEnv func(string) (string, bool)
	// File is the token_file path; "" skips it.
	File string
	// Command is the token_command: argv, run without a shell unless Shell
	// is set, in which case Command[0] is a shell command line.
	Command []string
	// Shell runs Command[0] with /bin/sh -c (config: token_command_shell).
	Shell bool
	// CommandTimeout bounds the command (default 10 s; config:
	// token_command_timeout).
	CommandTimeout time.Duration
}

// TokenSources returns the sources of a token in their order of precedence:
// the CATALYST_TOKEN environment variable, the token file, the token command.
// This is the one place where the client's package reads the environment,
// and only through opts.LookupEnv.
func TokenSources(opts TokenOptions) TokenSource {
	var chain chainSource
	if opts.LookupEnv != nil {
		chain = append(chain, EnvTokenSource(EnvToken, opts.LookupEnv))
	}
	if opts.File != "" {
		chain = append(chain, FileTokenSource(opts.File))
	}
	if len(opts.Command) > 0 {
		chain = append(chain, CommandTokenSource(opts.Command, opts.Shell, opts.CommandTimeout))
	}
	return chain
}

// ChainTokenSource tries each source in order and returns the first token.
// A source that is configured but fails (a token file readable by others, a
// failing command) stops the chain with its error rather than falling
// through silently.
func ChainTokenSource(sources ...TokenSource) TokenSource { return chainSource(sources) }

type chainSource []TokenSource

func (c chainSource) Token(ctx context.Context) (Token, error) {
	for _, s := range c {
		t, err := s.Token(ctx)
		if errors.Is(err, errNoToken) {
			continue
		}
		return t, err
	}
	return Token{}, fmt.Errorf("%w: no Catalyst token found (looked at: %s). %s",
		ErrNotAuthenticated, c.Describe(), TokenAdvice)
}

func (c chainSource) Describe() string {
	if len(c) == 0 {
		return "no token source configured"
	}
	parts := make([]string, len(c))
	for i, s := range c {
		parts[i] = s.Describe()
	}
	return strings.Join(parts, ", then ")
}

// EnvTokenSource reads the token from an environment variable through
// lookup.
func EnvTokenSource(name string, lookup func(string) (string, bool)) TokenSource {
	return envSource{name: name, lookup: lookup}
}

type envSource struct {
	name   string
	lookup func(string) (string, bool)
}

func (s envSource) Token(context.Context) (Token, error) {
	v, _ := s.lookup(s.name)
	v = strings.TrimSpace(v)
	if v == "" {
		return Token{}, errNoToken
	}
	return Token{value: v, From: s.Describe()}, nil
}

func (s envSource) Describe() string { return "environment variable " + s.name }

// FileTokenSource reads the token from a file, which must not be readable
// or writable by group or others.
func FileTokenSource(path string) TokenSource { return fileSource{path: path} }

type fileSource struct{ path string }

func (s fileSource) Token(context.Context) (Token, error) {
	info, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return Token{}, fmt.Errorf("%w: token file %s does not exist; create it with the token (mode 0600) or remove token_file from the config",
			ErrNotAuthenticated, safetext.Line(s.path))
	}
	if err != nil {
		return Token{}, fmt.Errorf("%w: reading token file: %v", ErrNotAuthenticated, err)
	}
	if !info.Mode().IsRegular() {
		return Token{}, fmt.Errorf("%w: token file %s is not a regular file", ErrNotAuthenticated, safetext.Line(s.path))
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return Token{}, fmt.Errorf("%w: token file %s has mode %04o, so other users can read or change it; twice refuses to use it: run chmod 600 %s",
			ErrNotAuthenticated, safetext.Line(s.path), perm, safetext.Line(s.path))
	}
	b, err := os.ReadFile(s.path)
	if err != nil {
		return Token{}, fmt.Errorf("%w: reading token file: %v", ErrNotAuthenticated, err)
	}
	v := strings.TrimSpace(string(b))
	if v == "" {
		return Token{}, fmt.Errorf("%w: token file %s is empty", ErrNotAuthenticated, safetext.Line(s.path))
	}
	if strings.ContainsAny(v, "\r\n") {
		return Token{}, fmt.Errorf("%w: token file %s holds more than one line; it must hold only the token", ErrNotAuthenticated, safetext.Line(s.path))
	}
	return Token{value: v, From: s.Describe()}, nil
}

func (s fileSource) Describe() string { return "token file " + safetext.Line(s.path) }

// CommandTokenSource runs a command whose standard output is the token:
// argv directly, or argv[0] through /bin/sh -c when shell is set. It is
// killed after timeout (0: DefaultTokenCommandTimeout).
func CommandTokenSource(argv []string, shell bool, timeout time.Duration) TokenSource {
	if timeout <= 0 {
		timeout = DefaultTokenCommandTimeout
	}
	return commandSource{argv: argv, shell: shell, timeout: timeout}
}

type commandSource struct {
	argv    []string
	shell   bool
	timeout time.Duration
}

func (s commandSource) Token(ctx context.Context) (Token, error) {
	if len(s.argv) == 0 || strings.TrimSpace(s.argv[0]) == "" {
		return Token{}, errNoToken
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var cmd *exec.Cmd
	if s.shell {
		cmd = exec.CommandContext(ctx, "/bin/sh", "-c", s.argv[0])
	} else {
		cmd = exec.CommandContext(ctx, s.argv[0], s.argv[1:]...)
	}
	out, err := runGrouped(cmd)
	if ctx.Err() == context.DeadlineExceeded {
		return Token{}, fmt.Errorf("%w: token_command %s did not finish within %v; check the command, or raise token_command_timeout in the config (twice.yaml)",
			ErrNotAuthenticated, s.Describe(), s.timeout)
	}
	if out.tooLong {
		return Token{}, fmt.Errorf("%w: token_command %s printed more than %d bytes; it must print only the token",
			ErrNotAuthenticated, s.Describe(), maxTokenOutput)
	}
	if err != nil {
		// Its standard error may echo what it printed on standard output
		// (the token, or part of it): that is redacted first.
		msg := strings.TrimSpace(stdoutRedactor(out.stdout).String(string(out.stderr)))
		if msg != "" {
			msg = ": " + safetext.Line(excerpt(msg, 300))
		}
		return Token{}, fmt.Errorf("%w: token_command %s failed (%v)%s", ErrNotAuthenticated, s.Describe(), err, msg)
	}
	v := strings.TrimSpace(string(out.stdout))
	if v == "" {
		return Token{}, fmt.Errorf("%w: token_command %s printed nothing; it must print the token on standard output",
			ErrNotAuthenticated, s.Describe())
	}
	if strings.ContainsAny(v, "\r\n") {
		return Token{}, fmt.Errorf("%w: token_command %s printed more than one line; it must print only the token",
			ErrNotAuthenticated, s.Describe())
	}
	return Token{value: v, From: "token_command " + s.Describe()}, nil
}

// maxTokenOutput bounds what a token command may print: a token is a few
// KiB at most; more is a mistake, and is not read into memory.
const maxTokenOutput = 64 << 10

// stdoutRedactor redacts what a command printed on standard output, as a
// whole and line by line.
func stdoutRedactor(stdout []byte) *secret.Redactor {
	r := secret.New(string(stdout))
	for _, line := range strings.Split(string(stdout), "\n") {
		r.Add(line)
	}
	return r
}

// commandOutput is what a token command printed.
type commandOutput struct {
	stdout, stderr []byte
	// tooLong is set when standard output passed maxTokenOutput (the
	// command was then ended).
	tooLong bool
}

// runGrouped runs cmd in a process group of its own and returns what it
// printed. When the command ends (or its context does, or it prints too
// much), everything left in its group is killed, so a background child
// (`sleep 1000 & echo T`) does not outlive twice or hold its pipes open.
func runGrouped(cmd *exec.Cmd) (commandOutput, error) {
	var out commandOutput
	outR, outW, err := os.Pipe()
	if err != nil {
		return out, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return out, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	ownGroup(cmd)
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return out, err
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		out.stdout, out.tooLong = readCapped(outR, maxTokenOutput, func() { endGroup(cmd) })
	}()
	go func() {
		defer wg.Done()
		out.stderr, _ = readCapped(errR, 4096, nil)
	}()
	err = cmd.Wait()
	endGroup(cmd)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
		// A process that left the group still holds a pipe: stop reading.
		outR.Close()
		errR.Close()
		<-done
	}
	outR.Close()
	errR.Close()
	return out, err
}

// readCapped reads r to its end and returns its first max bytes; once more
// than max arrived it calls over (when set) and discards the rest.
func readCapped(r io.Reader, max int, over func()) ([]byte, bool) {
	var buf []byte
	chunk := make([]byte, 4096)
	total := 0
	for {
		n, err := r.Read(chunk)
		if room := max - len(buf); room > 0 {
			buf = append(buf, chunk[:min(n, room)]...)
		}
		if total <= max && total+n > max && over != nil {
			over()
		}
		total += n
		if err != nil {
			return buf, total > max
		}
	}
}

func (s commandSource) Describe() string {
	if len(s.argv) == 0 {
		return "token_command (empty)"
	}
	// Its arguments, or a shell line, may hold a secret: only the program
	// is named.
	name := "`" + safetext.Line(excerpt(programName(s.argv[0], s.shell), 80)) + "`"
	if s.shell {
		name += " (through /bin/sh -c)"
	}
	return name
}

// programName returns the program a command runs: the base name of argv[0],
// or of the first word of a shell line that is not a variable assignment.
func programName(cmd string, shell bool) string {
	if shell {
		for _, w := range strings.Fields(cmd) {
			if !strings.Contains(w, "=") {
				cmd = w
				break
			}
		}
	}
	return filepath.Base(strings.TrimSpace(cmd))
}

// excerpt cuts s to at most n bytes, at a rune boundary, marking the cut.
func excerpt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
