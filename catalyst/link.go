package catalyst

import (
	"net/url"
	"strings"
	"unicode"
)

// DefaultConsole is the Catalyst console of the production environment.
const DefaultConsole = "https://catalyst.diagrid.io"

// ConsoleLink returns the console URL of a run,
// <console>/workflows/<appId>/<runId>, with ?project=<name> for a name-like
// project id or ?projectId=<uid> for a numeric uid (a "prj-" prefix is
// allowed), and no project parameter when twice cannot tell which it holds.
// console "" means DefaultConsole.
//
// ok is false, and there is no link, when the app id or run id is unknown or
// not a plain id (empty, or holding control, format or space characters): a
// link that opens the wrong run is worse than none, so callers print the ids
// as plain text instead.
func ConsoleLink(console string, run Run) (link string, ok bool) {
	if !IsPlainID(run.AppID) || !IsPlainID(run.ID) {
		return "", false
	}
	if console == "" {
		console = DefaultConsole
	}
	base, err := url.Parse(console)
	if err != nil || base.Scheme != "https" && base.Scheme != "http" || base.Host == "" ||
		base.User != nil || base.RawQuery != "" || base.Fragment != "" {
		return "", false
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(base.String(), "/"))
	b.WriteString("/workflows/")
	b.WriteString(url.PathEscape(run.AppID))
	b.WriteByte('/')
	b.WriteString(url.PathEscape(run.ID))
	if key, value := projectParam(run.Project); key != "" {
		b.WriteByte('?')
		b.WriteString(key)
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(value))
	}
	return b.String(), true
}

// projectParam chooses the console's project query parameter: projectId for
// a numeric uid, project for a name-like id, nothing when unsure.
func projectParam(p Project) (key, value string) {
	if uid := strings.TrimPrefix(p.UID, "prj-"); isDigits(uid) {
		return "projectId", uid
	}
	switch {
	case p.Name == "" || !IsPlainID(p.Name) || isDigits(p.Name):
		// A bare number could be a uid given as a name: unsure, so omit.
		return "", ""
	case strings.HasPrefix(p.Name, "prj-") && isDigits(p.Name[len("prj-"):]):
		// "prj-165" can only be a uid.
		return "projectId", p.Name[len("prj-"):]
	}
	return "project", p.Name
}

// IsPlainID reports whether s is usable as an id in a link, a window title or
// a clipboard copy: non-empty, at most 256 bytes, valid UTF-8, and free of
// control, format (bidi, zero-width), space and separator characters.
func IsPlainID(s string) bool {
	if s == "" || len(s) > 256 || s == "." || s == ".." {
		return false // "." and ".." would move the link's path, not name a run
	}
	for _, r := range s {
		if r == unicode.ReplacementChar || unicode.IsControl(r) || unicode.IsSpace(r) ||
			unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Zs) {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
