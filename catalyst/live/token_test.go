package live

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const secret = "cat_TESTTOKEN_123"

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
	good := writeToken(t, 0o600, secret+"-file\n")
	open := writeToken(t, 0o644, secret+"-file\n")
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
			opts: TokenOptions{LookupEnv: env(secret), File: good, Command: []string{"echo", "cmd"}},
			want: secret, wantFrom: "environment variable CATALYST_TOKEN"},
		{name: "file when env is unset",
			opts: TokenOptions{LookupEnv: env(""), File: good, Command: []string{"echo", "cmd"}},
			want: secret + "-file", wantFrom: "token file " + good},
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
			opts: TokenOptions{LookupEnv: env(""), Command: []string{"printf", "  %s\\n", secret + "-cmd"}},
			want: secret + "-cmd", wantFrom: "token_command `printf`"},
		{name: "command through the shell when configured",
			opts: TokenOptions{Command: []string{"echo " + secret + "-sh | tr a-z a-z"}, Shell: true},
			want: secret + "-sh", wantFrom: "token_command `sh -c echo "},
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
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error reveals the token: %v", err)
			}
		})
	}
}

func TestTokenNeverPrints(t *testing.T) {
	tok := Token{value: secret, From: "environment variable CATALYST_TOKEN"}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		out := fmt.Sprintf(verb, tok)
		if strings.Contains(out, secret) {
			t.Errorf("%s prints the token: %s", verb, out)
		}
		if !strings.Contains(out, "CATALYST_TOKEN") {
			t.Errorf("%s does not say where the token came from: %s", verb, out)
		}
	}
	wrapped := struct{ T Token }{tok}
	if out := fmt.Sprintf("%+v", wrapped); strings.Contains(out, secret) {
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
