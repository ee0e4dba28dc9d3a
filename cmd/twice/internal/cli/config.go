package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/regfile"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/cmd/twice/internal/trust"
	"github.com/twice-cli/twice/detect"
)

// ConfigFileName is the config file twice looks for in $XDG_CONFIG_HOME/twice
// (the user's) and in the current folder (the folder's, which may set only
// some keys unless trusted: LoadConfig).
const ConfigFileName = "twice.yaml"

// maxConfigBytes bounds the config file.
const maxConfigBytes = 1 << 20

// maxConcurrency bounds how many histories a fleet scan reads at once.
const maxConcurrency = 64

// Config is twice.yaml. Unknown keys are errors, so a typo is reported
// rather than silently ignored. Durations are Go durations ("90s", "10m",
// "1h30m"). The keys:
//
//	endpoint, project, app, org     where and what to read
//	token_file, token_command       the credential (CATALYST_TOKEN wins)
//	token_command_timeout           how long token_command may run (default 10s)
//	data_sharing_level              metadata or full, when known
//	timeout                         the limit on a command's network work
//	                                (default 10m; 0: none; --timeout wins)
//	request_timeout                 the limit on one HTTP request, body
//	                                included (default 30s)
//	max_body_bytes                  the largest answer read, in bytes
//	                                (default 67108864, 64 MiB)
//	console, concurrency, large_payload_bytes, activities, source
//
// endpoint, org, token_file, token_command and console are read from the
// current folder's twice.yaml only when the user trusted it (LoadConfig).
type Config struct {
	// Endpoint is the Catalyst MCP server URL.
	Endpoint string `yaml:"endpoint"`
	// Project and App are the defaults for --project and --app.
	Project string `yaml:"project"`
	App     string `yaml:"app"`
	// Org is sent as the organization id.
	Org string `yaml:"org"`
	// TokenFile holds a bearer token (it must not be readable by others).
	TokenFile string `yaml:"token_file"`
	// TokenCommand prints a bearer token: a list is run as argv, a string
	// through /bin/sh -c.
	TokenCommand TokenCommand `yaml:"token_command"`
	// TokenCommandTimeout bounds token_command (default 10 s).
	TokenCommandTimeout Duration `yaml:"token_command_timeout"`
	// DataSharingLevel is the organization's level when known (metadata or
	// full); unset, twice infers it from each history.
	DataSharingLevel string `yaml:"data_sharing_level"`
	// Timeout bounds a command's network work (default DefaultTimeout;
	// 0: no limit). --timeout wins.
	Timeout Duration `yaml:"timeout"`
	// RequestTimeout bounds one HTTP request, body included (default 30 s).
	RequestTimeout Duration `yaml:"request_timeout"`
	// MaxBodyBytes bounds one answer from Catalyst (default 64 MiB).
	MaxBodyBytes int64 `yaml:"max_body_bytes"`
	// Console is the Catalyst console's base URL for run links.
	Console string `yaml:"console"`
	// Concurrency is how many histories a fleet scan reads at once.
	Concurrency int `yaml:"concurrency"`
	// LargePayloadBytes is the large-payload finding's threshold.
	LargePayloadBytes int `yaml:"large_payload_bytes"`
	// Activities classify activities by name, overriding what their names
	// suggest.
	Activities ActivityLists `yaml:"activities"`
	// Source is the workflow and activity source that show and scan join
	// to the history (--source wins): a path or a list of paths.
	Source PathList `yaml:"source"`

	// Path is the user's own file the config was read from (--config, or
	// $XDG_CONFIG_HOME/twice/twice.yaml); "" when there is none.
	Path string `yaml:"-"`
	// Folder is the current folder's twice.yaml, read over the user's
	// (nil when there is none, or with --config).
	Folder *FolderConfig `yaml:"-"`
}

// ActivityLists name activities by what they do.
type ActivityLists struct {
	SideEffect []string `yaml:"side_effect"`
	ReadOnly   []string `yaml:"read_only"`
	Idempotent []string `yaml:"idempotent"`
}

// Duration is a Go duration in the config ("90s", "10m"); Set says the key
// was given, so an explicit 0 differs from none.
type Duration struct {
	time.Duration
	Set bool
}

// UnmarshalYAML reads a Go duration, or the number 0.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: a duration is one value such as 30s, 10m or 1h", n.Line)
	}
	v := strings.TrimSpace(n.Value)
	if v == "0" {
		*d = Duration{Set: true}
		return nil
	}
	parsed, err := time.ParseDuration(v)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration: write it with a unit, such as 30s, 10m or 1h", n.Line, v)
	}
	*d = Duration{Duration: parsed, Set: true}
	return nil
}

// maxBodyBytes bounds max_body_bytes: at least 64 KiB, at most 4 GiB.
const (
	minMaxBodyBytes = 64 << 10
	maxMaxBodyBytes = 4 << 30
)

// TokenCommand is a command that prints a token: Argv run directly, or a
// Shell command line.
type TokenCommand struct {
	Argv  []string
	Shell bool
}

// UnmarshalYAML accepts a string (a shell command line) or a list (argv).
func (c *TokenCommand) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		var s string
		if err := n.Decode(&s); err != nil {
			return err
		}
		if strings.TrimSpace(s) != "" {
			*c = TokenCommand{Argv: []string{s}, Shell: true}
		}
		return nil
	case yaml.SequenceNode:
		var argv []string
		if err := n.Decode(&argv); err != nil {
			return err
		}
		if len(argv) > 0 && argv[0] == "" {
			return fmt.Errorf("line %d: token_command's first element (the program) is empty", n.Line)
		}
		*c = TokenCommand{Argv: argv}
		return nil
	}
	return fmt.Errorf("line %d: token_command must be a command line or a list of arguments", n.Line)
}

// userConfigDir is the user's own twice folder: $XDG_CONFIG_HOME/twice,
// else ~/.config/twice ("" when neither variable says where). The user's
// config and the trust records live there.
func userConfigDir(env Env) string {
	if xdg := env.getenv("XDG_CONFIG_HOME"); xdg != "" && filepath.IsAbs(xdg) {
		return filepath.Join(xdg, "twice")
	}
	if home := env.getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "twice")
	}
	return ""
}

// folderConfigPath is the absolute path of twice.yaml in the current
// folder (Env.WorkDir, else the process's).
func folderConfigPath(env Env) string {
	dir := env.WorkDir
	if dir == "" {
		if wd, err := os.Getwd(); err == nil {
			dir = wd
		}
	}
	p, err := filepath.Abs(filepath.Join(dir, ConfigFileName))
	if err != nil {
		return filepath.Join(dir, ConfigFileName)
	}
	return p
}

// trustStore is the user's record of trusted folder configs.
func trustStore(env Env) trust.Store {
	dir := userConfigDir(env)
	if dir == "" {
		return trust.Store{}
	}
	return trust.Store{Path: filepath.Join(dir, trust.FileName)}
}

// configPaths returns where the config is looked for, in the order the
// user would read them (the folder's first: it wins where it may), and
// whether the first was given explicitly (and so must exist).
func configPaths(explicit string, env Env) (paths []string, mustExist bool) {
	if explicit != "" {
		return []string{explicit}, true
	}
	paths = append(paths, folderConfigPath(env))
	if dir := userConfigDir(env); dir != "" {
		paths = append(paths, filepath.Join(dir, ConfigFileName))
	}
	return paths, false
}

// trustedKeys are the keys only the user's own config, or a folder config
// the user trusts, may set: each chooses where the token goes (endpoint,
// org), what runs or is read for it (token_command, token_file), or where
// a link sends the user (console).
var trustedKeys = []string{"endpoint", "org", "token_file", "token_command", "console"}

// FolderConfig is what twice made of the current folder's twice.yaml.
type FolderConfig struct {
	// Path is the file's absolute path.
	Path string
	// Trust is what the user's trust records say of it.
	Trust trust.Status
	// TrustErr says why the trust records could not be read (then nothing
	// is trusted).
	TrustErr error
	// Set lists the keys the file sets; Ignored those of them twice did
	// not use because the file is not trusted.
	Set, Ignored []string
}

// Notice says, for standard error and twice doctor, what twice ignored in
// the folder's config and how to trust it; "" when nothing was ignored.
func (fc *FolderConfig) Notice() string {
	if fc == nil || len(fc.Ignored) == 0 {
		return ""
	}
	why := "it is not trusted"
	switch {
	case fc.TrustErr != nil:
		why = safetext.Line(fc.TrustErr.Error())
	case fc.Trust == trust.Changed:
		why = "it changed since you trusted it"
	}
	return fmt.Sprintf("ignored %s in %s: %s, and a folder's config may not choose where your token goes or what runs. "+
		"If you trust this file, run twice trust (an edit of the file revokes it)",
		strings.Join(fc.Ignored, ", "), safetext.Line(fc.Path), why)
}

// LoadConfig reads the config. An explicit file (--config) is the whole
// config, as written. Otherwise the user's own file
// ($XDG_CONFIG_HOME/twice/twice.yaml) comes first, then twice.yaml in the
// current folder overrides what it sets, except the trustedKeys, which it
// sets only when the user trusted that file with twice trust (the keys
// ignored are listed in Config.Folder). No file gives an empty config; an
// explicit file that is missing, or any file that is malformed or not a
// regular file, is an error naming the file.
func LoadConfig(explicit string, env Env) (*Config, error) {
	if explicit != "" {
		data, err := readConfigFile(explicit)
		if err != nil {
			return nil, err
		}
		cfg, _, err := parseConfig(data)
		if err != nil {
			return nil, fmt.Errorf("config %s: %w", explicit, err)
		}
		cfg.Path = explicit
		return cfg, nil
	}
	cfg := &Config{}
	var user string
	if dir := userConfigDir(env); dir != "" {
		user = filepath.Join(dir, ConfigFileName)
		data, err := readConfigFile(user)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			user = ""
		case err != nil:
			return nil, err
		default:
			if cfg, _, err = parseConfig(data); err != nil {
				return nil, fmt.Errorf("config %s: %w", user, err)
			}
			cfg.Path = user
		}
	}
	folder := folderConfigPath(env)
	if user != "" && sameFile(user, folder) {
		return cfg, nil // run in the user's own config folder
	}
	data, err := readConfigFile(folder)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return nil, err
	}
	local, keys, err := parseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", folder, err)
	}
	fc := &FolderConfig{Path: folder, Set: keys}
	if slices.ContainsFunc(keys, func(k string) bool { return slices.Contains(trustedKeys, k) }) {
		fc.Trust, fc.TrustErr = trustStore(env).Check(folder, data)
	}
	for _, k := range keys {
		if slices.Contains(trustedKeys, k) && fc.Trust != trust.Trusted {
			fc.Ignored = append(fc.Ignored, k)
			continue
		}
		cfg.take(local, k)
	}
	cfg.Folder = fc
	return cfg, nil
}

// take sets the key's field (by its yaml name) from another config.
func (c *Config) take(from *Config, key string) {
	cv, fv := reflect.ValueOf(c).Elem(), reflect.ValueOf(from).Elem()
	for i := range cv.NumField() {
		if name, _, _ := strings.Cut(cv.Type().Field(i).Tag.Get("yaml"), ","); name == key {
			cv.Field(i).Set(fv.Field(i))
			return
		}
	}
}

// sameFile reports whether two names are one file.
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// readConfigFile reads a config file: a regular file (never a named pipe
// or a device, which would hang or never end) of at most 1 MiB.
func readConfigFile(path string) ([]byte, error) {
	data, err := regfile.ReadFile(path, maxConfigBytes)
	var tooLarge *regfile.TooLargeError
	switch {
	case err == nil:
		return data, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("config %s does not exist: %w; create it or drop --config", path, fs.ErrNotExist)
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("config %s is larger than 1 MiB; is it the right file?", path)
	case regfile.IsNotRegular(err):
		return nil, fmt.Errorf("config %w", err)
	}
	return nil, fmt.Errorf("config %s cannot be read: %w", path, err)
}

// configKeys lists the keys twice.yaml may hold, for error messages.
const configKeys = "endpoint, project, app, org, token_file, token_command, token_command_timeout, data_sharing_level, " +
	"timeout, request_timeout, max_body_bytes, console, concurrency, large_payload_bytes, activities (side_effect, read_only, idempotent), source"

// parseConfig decodes and checks a config document, and returns the
// top-level keys it sets, in order.
func parseConfig(data []byte) (*Config, []string, error) {
	cfg := &Config{}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("%v (the keys twice reads are: %s)", strings.TrimPrefix(err.Error(), "yaml: "), configKeys)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, nil, errors.New("holds more than one YAML document; keep one")
	}
	var doc yaml.Node
	var keys []string
	if err := yaml.Unmarshal(data, &doc); err == nil && len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		m := doc.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			keys = append(keys, m.Content[i].Value)
		}
	}
	return cfg, keys, cfg.validate()
}

// validate checks values a YAML type cannot.
func (c *Config) validate() error {
	level, ok := catalyst.ParseLevel(c.DataSharingLevel)
	if !ok {
		return fmt.Errorf("data_sharing_level %q is not a Catalyst level: use metadata or full, or leave it out to let twice infer it", c.DataSharingLevel)
	}
	c.DataSharingLevel = string(level)
	if c.Console != "" {
		u, err := url.Parse(c.Console)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return fmt.Errorf("console %q is not a console base URL such as %s", c.Console, catalyst.DefaultConsole)
		}
	}
	if c.Concurrency < 0 || c.Concurrency > maxConcurrency {
		return fmt.Errorf("concurrency %d is out of range: use 1 to %d (0 means the default, 8)", c.Concurrency, maxConcurrency)
	}
	if c.LargePayloadBytes < 0 {
		return fmt.Errorf("large_payload_bytes %d is negative", c.LargePayloadBytes)
	}
	if c.Timeout.Duration < 0 {
		return fmt.Errorf("timeout %s is negative: give a duration such as 10m, or 0 for no limit", c.Timeout.Duration)
	}
	for _, d := range []struct {
		key string
		d   Duration
	}{{"request_timeout", c.RequestTimeout}, {"token_command_timeout", c.TokenCommandTimeout}} {
		if d.d.Set && d.d.Duration <= 0 {
			return fmt.Errorf("%s %s must be more than 0: give a duration such as 30s, or leave it out for the default", d.key, d.d.Duration)
		}
	}
	if c.MaxBodyBytes != 0 && (c.MaxBodyBytes < minMaxBodyBytes || c.MaxBodyBytes > maxMaxBodyBytes) {
		return fmt.Errorf("max_body_bytes %d is out of range: use %d (64 KiB) to %d (4 GiB) bytes, or leave it out for the default, 64 MiB",
			c.MaxBodyBytes, minMaxBodyBytes, int64(maxMaxBodyBytes))
	}
	seen := map[string]string{}
	for _, l := range []struct {
		key   string
		names []string
	}{{"side_effect", c.Activities.SideEffect}, {"read_only", c.Activities.ReadOnly}, {"idempotent", c.Activities.Idempotent}} {
		for _, n := range l.names {
			if n == "" {
				return fmt.Errorf("activities.%s holds an empty name", l.key)
			}
			// detect matches names ignoring case, so must the check.
			k := strings.ToLower(n)
			if prev, ok := seen[k]; ok && prev != l.key {
				return fmt.Errorf("activity %q is listed under both activities.%s and activities.%s; keep one", n, prev, l.key)
			}
			seen[k] = l.key
		}
	}
	return nil
}

// overrides builds detect's per-activity classes: the config's lists, then
// the --side-effect and --read-only flags, which win. detect matches names
// ignoring case, so the map is keyed by the lower-cased name and a flag
// replaces a config entry spelled differently.
func (c *Config) overrides(sideEffect, readOnly []string) (map[string]detect.ActivityClass, error) {
	m := map[string]detect.ActivityClass{}
	for _, l := range []struct {
		names []string
		class detect.ActivityClass
	}{{c.Activities.SideEffect, detect.ClassSideEffect}, {c.Activities.ReadOnly, detect.ClassReadOnly}, {c.Activities.Idempotent, detect.ClassIdempotent}} {
		for _, n := range l.names {
			m[strings.ToLower(n)] = l.class
		}
	}
	flagged := map[string]bool{}
	for _, n := range sideEffect {
		if n == "" {
			return nil, usagef("--side-effect needs an activity name")
		}
		m[strings.ToLower(n)] = detect.ClassSideEffect
		flagged[strings.ToLower(n)] = true
	}
	for _, n := range readOnly {
		if n == "" {
			return nil, usagef("--read-only needs an activity name")
		}
		if flagged[strings.ToLower(n)] {
			return nil, usagef("activity %q is given to both --side-effect and --read-only; give it one", n)
		}
		m[strings.ToLower(n)] = detect.ClassReadOnly
	}
	if len(m) == 0 {
		return nil, nil
	}
	return m, nil
}

// PathList is one path or a list of paths.
type PathList []string

// UnmarshalYAML accepts a string or a list of strings.
func (p *PathList) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Value != "" {
			*p = PathList{n.Value}
		}
		return nil
	case yaml.SequenceNode:
		var list []string
		if err := n.Decode(&list); err != nil {
			return err
		}
		*p = list
		return nil
	}
	return fmt.Errorf("line %d: source must be a path or a list of paths", n.Line)
}
