package catalysttest

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/twice-cli/twice/catalyst"
)

//go:embed testdata/*.json
var testdata embed.FS

// Run is one workflow run the server holds: what the list tool shows of it
// and the document the get tool returns.
type Run struct {
	// Project is the Catalyst project ("default" when empty).
	Project string
	// AppID, ID, Workflow and Status identify and describe the run.
	AppID    string
	ID       string
	Workflow string
	Status   string
	// CreatedAt and UpdatedAt are the run's start and last update.
	CreatedAt time.Time
	UpdatedAt time.Time
	// Doc is the run's document at the full data-sharing level, in
	// Catalyst's flattened form: the run's fields and its "history".
	Doc []byte
}

// Bundled returns the runs of the histories in testdata/, in file-name
// order. Each call returns fresh copies.
func Bundled() []Run {
	entries, err := testdata.ReadDir("testdata")
	if err != nil {
		panic(fmt.Sprintf("catalysttest: embedded testdata unreadable: %v", err)) // a build defect
	}
	var runs []Run
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		doc, err := testdata.ReadFile(path.Join("testdata", e.Name()))
		if err != nil {
			panic(fmt.Sprintf("catalysttest: %s: %v", e.Name(), err))
		}
		r, err := RunFromDoc(doc)
		if err != nil {
			panic(fmt.Sprintf("catalysttest: %s: %v", e.Name(), err))
		}
		runs = append(runs, r)
	}
	return runs
}

// BundledDoc returns the document of one bundled history file by name
// ("payment-retried-after-timeout.json").
func BundledDoc(name string) ([]byte, error) {
	return testdata.ReadFile(path.Join("testdata", name))
}

// RunFromDoc reads a run's list fields from its document's top level
// (instanceID, appId, workflowName, runtimeStatus, createdAt,
// lastUpdatedAt, projectId).
func RunFromDoc(doc []byte) (Run, error) {
	var head struct {
		InstanceID    string    `json:"instanceID"`
		AppID         string    `json:"appId"`
		ProjectID     string    `json:"projectId"`
		WorkflowName  string    `json:"workflowName"`
		RuntimeStatus string    `json:"runtimeStatus"`
		CreatedAt     time.Time `json:"createdAt"`
		LastUpdatedAt time.Time `json:"lastUpdatedAt"`
	}
	if err := json.Unmarshal(doc, &head); err != nil {
		return Run{}, fmt.Errorf("not a run document: %w", err)
	}
	if head.InstanceID == "" {
		return Run{}, fmt.Errorf("the run document has no instanceID")
	}
	return Run{
		Project: head.ProjectID, AppID: head.AppID, ID: head.InstanceID, Workflow: head.WorkflowName,
		Status: head.RuntimeStatus, CreatedAt: head.CreatedAt, UpdatedAt: head.LastUpdatedAt,
		Doc: bytes.Clone(doc),
	}, nil
}

// WithID returns a copy of r under another run id, its document's
// instanceID rewritten (for generated fleets).
func (r Run) WithID(id string) Run {
	old, _ := json.Marshal(r.ID)
	repl, _ := json.Marshal(id)
	r.Doc = bytes.Replace(r.Doc, []byte(`"instanceID":`+string(old)), []byte(`"instanceID":`+string(repl)), 1)
	r.Doc = bytes.Replace(r.Doc, []byte(`"instanceID": `+string(old)), []byte(`"instanceID": `+string(repl)), 1)
	r.ID = id
	return r
}

// row is a run as the list tool shows it.
func (r Run) row() map[string]any {
	m := map[string]any{
		"instanceID":    r.ID,
		"appId":         r.AppID,
		"workflowName":  r.Workflow,
		"runtimeStatus": r.Status,
	}
	if !r.CreatedAt.IsZero() {
		m["createdAt"] = r.CreatedAt.UTC().Format(time.RFC3339Nano)
	}
	if !r.UpdatedAt.IsZero() {
		m["lastUpdatedAt"] = r.UpdatedAt.UTC().Format(time.RFC3339Nano)
	}
	return m
}

func (r Run) project() string {
	if r.Project == "" {
		return "default"
	}
	return r.Project
}

// newestFirst orders runs by start time, newest first, then by id.
func newestFirst(runs []*Run) {
	sort.SliceStable(runs, func(i, j int) bool {
		if !runs[i].CreatedAt.Equal(runs[j].CreatedAt) {
			return runs[i].CreatedAt.After(runs[j].CreatedAt)
		}
		return runs[i].ID < runs[j].ID
	})
}

// withheldKeys are the members Catalyst removes at the metadata level, at
// any depth: workflow and event payloads.
func withheldKeys(name string) bool {
	switch name {
	case "input", "output", "result", "customStatus", "custom_status":
		return true
	}
	return false
}

// ApplyLevel returns doc as the server sends it at level: unchanged at full;
// at metadata (or any other level) with every input, output, result and
// customStatus member removed at any depth — absent, not empty.
func ApplyLevel(doc []byte, level catalyst.Level) ([]byte, error) {
	if strings.EqualFold(string(level), string(catalyst.LevelFull)) {
		return doc, nil
	}
	var out bytes.Buffer
	dec := jsontext.NewDecoder(bytes.NewReader(doc))
	enc := jsontext.NewEncoder(&out)
	if err := filterValue(dec, enc); err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the document")
	}
	return bytes.TrimSpace(out.Bytes()), nil
}

func filterValue(dec *jsontext.Decoder, enc *jsontext.Encoder) error {
	switch dec.PeekKind() {
	case '{':
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		if err := enc.WriteToken(tok); err != nil {
			return err
		}
		for dec.PeekKind() != '}' {
			name, err := dec.ReadToken()
			if err != nil {
				return err
			}
			if withheldKeys(name.String()) {
				if err := dec.SkipValue(); err != nil {
					return err
				}
				continue
			}
			if err := enc.WriteToken(name); err != nil {
				return err
			}
			if err := filterValue(dec, enc); err != nil {
				return err
			}
		}
		tok, err = dec.ReadToken()
		if err != nil {
			return err
		}
		return enc.WriteToken(tok)
	case '[':
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		if err := enc.WriteToken(tok); err != nil {
			return err
		}
		for dec.PeekKind() != ']' {
			if err := filterValue(dec, enc); err != nil {
				return err
			}
		}
		tok, err = dec.ReadToken()
		if err != nil {
			return err
		}
		return enc.WriteToken(tok)
	}
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	return enc.WriteValue(v)
}
