package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTrustFollowsContent: a file is trusted for the content trusted; an
// edit makes it Changed (revoked), trusting again holds the new content,
// and Revoke removes it. Another path with the same content is not
// trusted.
func TestTrustFollowsContent(t *testing.T) {
	dir := t.TempDir()
	s := Store{Path: filepath.Join(dir, "cfg", "twice", FileName)}
	path := "/repo/twice.yaml"
	v1, v2 := []byte("endpoint: https://a.example/mcp\n"), []byte("endpoint: https://b.example/mcp\n")
	check := func(content []byte, p string, want Status) {
		t.Helper()
		got, err := s.Check(p, content)
		if err != nil || got != want {
			t.Fatalf("Check(%s) = %v, %v; want %v", p, got, err, want)
		}
	}
	check(v1, path, Untrusted)
	if err := s.Trust(path, v1, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	check(v1, path, Trusted)
	check(v1, "/other/twice.yaml", Untrusted)
	check(v2, path, Changed)
	if err := s.Trust(path, v2, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	check(v2, path, Trusted)
	check(v1, path, Changed)
	st, err := os.Stat(s.Path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("store mode: %v, %v", st, err)
	}
	if ok, err := s.Revoke(path); !ok || err != nil {
		t.Fatalf("Revoke = %v, %v", ok, err)
	}
	check(v2, path, Untrusted)
	if ok, err := s.Revoke(path); ok || err != nil {
		t.Fatalf("second Revoke = %v, %v", ok, err)
	}
}

// TestBrokenStoreTrustsNothing: a store that is not twice's is an error
// naming it, never a trust.
func TestBrokenStoreTrustsNothing(t *testing.T) {
	p := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(p, []byte(`{"files":[{"path":"/repo/twice.yaml","sha256":"x"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := Store{Path: p}.Check("/repo/twice.yaml", nil)
	if st != Untrusted || err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("Check = %v, %v", st, err)
	}
}
