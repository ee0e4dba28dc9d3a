package live

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const testSecret = "cat_TESTTOKEN_123"

func writeToken(t *testing.T, mode os.FileMode, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTokenSourcesPrecedenceAndRefusals(t *testing.T) {
	good := writeToken(t, 0o600, testSecret+"-file\n")
	open := writeToken(t, 0o644, testSecret+"-file\n")
	empty := writeToken(t, 0o600, "  \n")
	tests := []struct {
		name     string
		opts     TokenOptions
		want     string // token value; "" expects an error
		wantFrom string
		wantErr  []string // substrings of the error
		notAuth  bool     // errors.Is(err, ErrNotAuthenticated)
	}{
		{name: "env wins over file and command",
			opts: TokenOptions{LookupEnv: env(testSecret), File: good, Command: []string{"echo", "cmd"}},
			want: testSecret, wantFrom: "environment variable CATALYST_TOKEN"},
		{name: "file when env is unset",
			opts: TokenOptions{LookupEnv: env(""), File: good, Command: []string{"echo", "cmd"}},
			want: testSecret + "-file", wantFrom: "token file " + good},
		{name: "file readable by others is refused, naming mode and chmod",
			opts:    TokenOptions{LookupEnv: env(""), File: open, Command: []string{"echo", "cmd"}},
			wantErr: []string{"mode 0644", "chmod 600 " + open}, notAuth: true},
		{name: "missing file is an error, not a fall-through",
			opts:    TokenOptions{File: filepath.Join(t.TempDir(), "nope"), Command: []string{"echo", "cmd"}},
			wantErr: []string{"does not exist"}, notAuth: true},
		{name: "empty file",
			opts:    TokenOptions{File: empty},
			wantErr: []string{"is empty"}, notAuth: true},
		{name: "command without shell, output trimmed",
			opts: TokenOptions{LookupEnv: env(""), Command: []string{"printf", "  %s\\n", testSecret + "-cmd"}},
			want: testSecret + "-cmd", wantFrom: "token_command `printf`"},
		{name: "command through the shell when configured",
			opts: TokenOptions{Command: []string{"echo " + testSecret + "-sh | tr a-z a-z"}, Shell: true},
			want: testSecret + "-sh", wantFrom: "token_command `echo` (through /bin/sh -c)"},
		{name: "command is not run through a shell by default",
			opts:    TokenOptions{Command: []string{"echo token | tr a-z A-Z"}},
			wantErr: []string{"failed"}, notAuth: true},
		{name: "command failing names its stderr",
			opts:    TokenOptions{Command: []string{"sh", "-c", "echo not logged in >&2; exit 3"}},
			wantErr: []string{"failed", "exit status 3", "not logged in"}, notAuth: true},
		{name: "command printing nothing",
			opts:    TokenOptions{Command: []string{"true"}},
			wantErr: []string{"printed nothing"}, notAuth: true},
		{name: "command over its timeout",
			opts:    TokenOptions{Command: []string{"sleep", "5"}, CommandTimeout: 50 * time.Millisecond},
			wantErr: []string{"did not finish within 50ms", "token_command_timeout"}, notAuth: true},
		{name: "nothing configured",
			opts:    TokenOptions{LookupEnv: env("")},
			wantErr: []string{"no Catalyst token found", "CATALYST_TOKEN", "token_file", "token_command"}, notAuth: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			tok, err := TokenSources(tc.opts).Token(context.Background())
			if time.Since(start) > 3*time.Second {
				t.Errorf("token source took %v", time.Since(start))
			}
			if tc.want != "" {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				if tok.value != tc.want {
					t.Errorf("token = %q, want %q", tok.value, tc.want)
				}
				if !strings.HasPrefix(tok.From, tc.wantFrom) {
					t.Errorf("From = %q, want prefix %q", tok.From, tc.wantFrom)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; token from %s", tok.From)
			}
			for _, s := range tc.wantErr {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
			if errors.Is(err, ErrNotAuthenticated) != tc.notAuth {
				t.Errorf("errors.Is(ErrNotAuthenticated) = %v, want %v", !tc.notAuth, tc.notAuth)
			}
			if strings.Contains(err.Error(), testSecret) {
				t.Errorf("error reveals the token: %v", err)
			}
		})
	}
}

func TestTokenNeverPrints(t *testing.T) {
	tok := Token{value: testSecret, From: "environment variable CATALYST_TOKEN"}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		out := fmt.Sprintf(verb, tok)
		if strings.Contains(out, testSecret) {
			t.Errorf("%s prints the token: %s", verb, out)
		}
		if !strings.Contains(out, "CATALYST_TOKEN") {
			t.Errorf("%s does not say where the token came from: %s", verb, out)
		}
	}
	wrapped := struct{ T Token }{tok}
	if out := fmt.Sprintf("%+v", wrapped); strings.Contains(out, testSecret) {
		t.Errorf("a struct holding the token prints it: %s", out)
	}
}

func TestTokenSourceDescriptions(t *testing.T) {
	d := TokenSources(TokenOptions{LookupEnv: env(""), File: "/x/token", Command: []string{"op", "read", "op://vault/catalyst"}}).Describe()
	want := "environment variable CATALYST_TOKEN, then token file /x/token, then `op`"
	if d != want {
		t.Errorf("Describe = %q, want %q", d, want)
	}
}

// TestTokenCommandLeavesNothingRunning: a token command that starts a
// background child (`sleep 1000 & echo T`) gives its token at once, and
// the child does not outlive the read.
func TestTokenCommandLeavesNothingRunning(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "child.pid")
	line := "sleep 1000 & echo $! > " + marker + "; echo " + testSecret
	start := time.Now()
	tok, err := CommandTokenSource([]string{line}, true, 5*time.Second).Token(context.Background())
	if err != nil || tok.Secret() != testSecret {
		t.Fatalf("token %v, err %v", tok, err)
	}
	if d := time.Since(start); d > 900*time.Millisecond {
		t.Errorf("the background child held the read for %v", d)
	}
	b, err := os.ReadFile(marker)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(2 * time.Second)
	for processAlive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the background child %d is still running", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// processAlive reports whether pid is a live process (not a zombie).
func processAlive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}

// TestTokenCommandOutputIsCapped: a command printing without end is ended
// once it passes the cap, and twice says why, without reading it all.
func TestTokenCommandOutputIsCapped(t *testing.T) {
	start := time.Now()
	_, err := CommandTokenSource([]string{"yes"}, false, 5*time.Second).Token(context.Background())
	if err == nil || !strings.Contains(err.Error(), "printed more than 65536 bytes") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestTokenCommandErrorsHoldNoSecret: a failing command whose standard
// error echoes what it printed, and whose command line holds a secret:
// the error names the program only and redacts the echo.
func TestTokenCommandErrorsHoldNoSecret(t *testing.T) {
	line := "echo " + testSecret + "; echo \"bad token " + testSecret + "\" >&2; exit 3"
	_, err := CommandTokenSource([]string{line}, true, 5*time.Second).Token(context.Background())
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if strings.Contains(msg, testSecret[:8]) || !strings.Contains(msg, "bad token [redacted]") ||
		!strings.Contains(msg, "`echo` (through /bin/sh -c)") {
		t.Errorf("err = %s", msg)
	}
	_, err = CommandTokenSource([]string{"/bin/false", "--password=" + testSecret}, false, 5*time.Second).Token(context.Background())
	if err == nil || strings.Contains(err.Error(), testSecret) || !strings.Contains(err.Error(), "`false`") {
		t.Errorf("err = %v", err)
	}
}
