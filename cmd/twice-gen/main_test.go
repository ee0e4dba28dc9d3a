package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/fixtures/gen"
)

func runArgs(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestGenerateFile(t *testing.T) {
	for _, tt := range []struct {
		flag string
		opts gen.Options
	}{
		{"protojson", gen.Options{Format: catalyst.FormatProtoJSON}},
		{"catalyst", gen.Options{Format: catalyst.FormatCatalyst}},
		{"dapr-cli", gen.Options{Format: catalyst.FormatDaprCLI}},
		{"fixture", gen.Options{Format: catalyst.FormatFixture}},
	} {
		t.Run(tt.flag, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "h.json")
			code, _, stderr := runArgs("-n", "500", "-format", tt.flag, "-seed", "3", "-level", "metadata", "-o", path)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			opts := tt.opts
			opts.Events, opts.Seed, opts.Level = 500, 3, catalyst.LevelMetadata
			want, err := gen.Bytes(opts)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatal("the file is not the history gen writes for these options")
			}
		})
	}
}

func TestGenerateFlagsReachOptions(t *testing.T) {
	code, stdout, stderr := runArgs("-n", "300", "-legacy", "-router")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want, _ := gen.Bytes(gen.Options{Events: 300, Seed: 1, LegacyKeys: true, Router: true})
	if stdout != string(want) {
		t.Fatal("stdout is not the legacy, routed protojson history of seed 1")
	}
	code, stdout, _ = runArgs("-n", "300", "-format", "fixture", "-inner", "dapr-cli")
	if code != exitOK || !strings.Contains(stdout, `"format": "dapr-cli"`) {
		t.Fatalf("exit %d; -inner did not reach the fixture: %.300s", code, stdout)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-n"},
		{"-n", "ten"},
		{"-n", "10", "extra"},
		{"-bogus"},
		{"floor"},
		{"floor", "a", "b"},
	} {
		code, _, stderr := runArgs(args...)
		if code != exitUsage || !strings.Contains(stderr, "usage:") {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 with the usage", args, code, stderr)
		}
	}
	if code, stdout, _ := runArgs("-h"); code != exitOK || !strings.Contains(stdout, "usage:") {
		t.Errorf("-h: exit %d, stdout %q", code, stdout)
	}
}

// TestFailedGenerateLeavesNoFile: bad options are a usage error and a file
// that cannot be written an error naming it; neither a partial file nor a
// temporary one remains, and an existing file is left as it was.
func TestFailedGenerateLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "h.json")
	if err := os.WriteFile(path, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-n", "10", "-format", "yaml", "-o", path},
		{"-n", "2", "-o", path},
		{"-n", "10", "-format", "fixture", "-inner", "xml", "-o", path},
		{"-n", "10", "-format", "catalyst", "-legacy", "-o", path},
	} {
		// A command line twice-gen cannot run is a usage error (exit 2)
		// naming the flag's own words, and writes nothing.
		code, _, stderr := runArgs(args...)
		if code != exitUsage || strings.Contains(stderr, "twice-fixture") {
			t.Fatalf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
	code, _, stderr := runArgs("-n", "10", "-format", "yaml", "-o", path)
	if !strings.Contains(stderr, `-format "yaml"`) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("%d files in the folder, want only the original", len(entries))
	}
	if b, _ := os.ReadFile(path); string(b) != "keep" {
		t.Fatalf("the existing file changed: %q", b)
	}
	code, _, stderr = runArgs("-n", "10", "-o", filepath.Join(dir, "missing", "h.json"))
	if code != exitError || !strings.Contains(stderr, "missing") {
		t.Fatalf("unwritable folder: exit %d, stderr %q", code, stderr)
	}
}

func TestFloor(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "h.json")
	if code, _, stderr := runArgs("-n", "2000", "-o", path); code != exitOK {
		t.Fatal(stderr)
	}
	for _, args := range [][]string{
		{"floor", path},
		{"floor", "-tokenizer", "twice", path},
		{"floor", "-tokenizer", "jsontext", path},
	} {
		code, stdout, stderr := runArgs(args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		secs, err := strconv.ParseFloat(strings.TrimSpace(stdout), 64)
		if err != nil || secs < 0 || secs > 10 {
			t.Fatalf("%v printed %q, want seconds", args, stdout)
		}
	}
	// Every token is read: 2000 events hold far more than 2000 tokens.
	_, tokens, err := floorJSONText(path)
	if err != nil || tokens < 20000 {
		t.Fatalf("jsontext read %d tokens, %v", tokens, err)
	}
	// Every byte is read.
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, read, err := floorTwice(path); err != nil || read != info.Size() {
		t.Fatalf("twice's scanner read %d of %d bytes, %v", read, info.Size(), err)
	}

	for name, content := range map[string]string{
		"truncated": `{"events":[{"a":`, "garbage": "not json", "empty": "", "trailing": `{"events":[]} x`,
	} {
		p := filepath.Join(dir, name+".json")
		os.WriteFile(p, []byte(content), 0o600)
		for _, tokenizer := range []string{"twice", "jsontext"} {
			code, _, stderr := runArgs("floor", "-tokenizer", tokenizer, p)
			if code != exitError || !strings.Contains(stderr, p) {
				t.Errorf("%s with %s: exit %d, stderr %q; want exit 1 naming the file", name, tokenizer, code, stderr)
			}
		}
	}
	if code, _, stderr := runArgs("floor", filepath.Join(dir, "none.json")); code != exitError || !strings.Contains(stderr, "none.json") {
		t.Errorf("missing file: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runArgs("floor", "-tokenizer", "simd", path); code != exitUsage || !strings.Contains(stderr, "simd") {
		t.Errorf("unknown tokenizer: exit %d, stderr %q; want exit 2 naming it", code, stderr)
	}
}
