// Command gen writes the real-source suite's histories as one older
// durabletask-go version, and the Dapr CLI of that version, write them
// (detect/realsource_test.go reads them). It is its own module, built once
// per version with that version's go.mod (generate.sh), and is not part of
// twice's build.
//
// Its input is ../scenarios/*.binpb: each scenario's events as the engine
// stores them (binary HistoryEvent messages, length-delimited), written by
// the suite with durabletask-go v0.14.0. Field numbers do not change
// between versions, so each version reads them as it would read a stored
// history: a field it does not know is kept unknown and not printed, and
// an event of a type it does not know has no type (the scenario is then
// skipped for that version: it cannot occur there).
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dapr/durabletask-go/api/protos"
	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/encoding/protojson"
)

// cliNow stands for the moment the CLI ran (its first row's "Age:"); the
// suite uses the same instant.
var cliNow = time.Date(2026, 8, 21, 9, 0, 0, 0, time.UTC)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	apps, err := readIndex("../scenarios/index.tsv")
	if err != nil {
		return err
	}
	protoDir := "../protojson-durabletask-go-" + dtgoVersion
	if err := os.MkdirAll(protoDir, 0o755); err != nil {
		return err
	}
	if cliVersion != "" {
		if err := os.MkdirAll("../dapr-cli-"+cliVersion, 0o755); err != nil {
			return err
		}
	}
	for _, sc := range apps {
		events, err := readEvents("../scenarios/" + sc.name + ".binpb")
		if err != nil {
			return err
		}
		if unknown := untyped(events); unknown >= 0 {
			fmt.Printf("%s: skipped for durabletask-go %s: event %d has a type this version does not know\n",
				sc.name, dtgoVersion, unknown)
			continue
		}
		var doc bytes.Buffer
		doc.WriteString(`{"events":[`)
		for i, e := range events {
			if i > 0 {
				doc.WriteByte(',')
			}
			b, err := protojson.Marshal(e)
			if err != nil {
				return err
			}
			doc.Write(b)
		}
		doc.WriteString("]}")
		if err := os.WriteFile(filepath.Join(protoDir, sc.name+".json"), doc.Bytes(), 0o644); err != nil {
			return err
		}
		if cliVersion != "" {
			rows, err := cliRows(events, "default", sc.app, cliNow)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join("../dapr-cli-"+cliVersion, sc.name+".json"), rows, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

type scenario struct{ name, app string }

// readIndex reads the scenarios' names and app ids (name<TAB>app lines).
func readIndex(path string) ([]scenario, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []scenario
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		name, app, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("%s: bad line %q", path, line)
		}
		out = append(out, scenario{name, app})
	}
	return out, nil
}

// readEvents reads length-delimited HistoryEvent messages.
func readEvents(path string) ([]*protos.HistoryEvent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var events []*protos.HistoryEvent
	for {
		e := &protos.HistoryEvent{}
		if err := protodelim.UnmarshalFrom(r, e); err != nil {
			if errors.Is(err, io.EOF) {
				return events, nil
			}
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		events = append(events, e)
	}
}

// untyped returns the index of the first event whose type this version
// does not know, or -1.
func untyped(events []*protos.HistoryEvent) int {
	for i, e := range events {
		if e.GetEventType() == nil {
			return i
		}
	}
	return -1
}
