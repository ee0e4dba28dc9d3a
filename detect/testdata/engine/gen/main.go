// Command gen runs workflows on dapr/durabletask-go's own engine and writes
// the histories detect's engine suite reads (detect/engine_test.go):
// ../<scenario>.history.json and ../<scenario>.instance.json, and the
// index ../runs.tsv. The Dapr CLI's rows are made from the history files by
// the suite's reproduction of CLI v1.18.0 (detect/realsource_cli_test.go),
// so there is one reproduction; generate.sh runs both steps.
//
// The engine is assembled as dapr/dapr v1.18.0 assembles its workflow
// engine (pkg/runtime/wfengine/wfengine.go, New): a backend, the gRPC
// executor it serves to the app (backend.NewGrpcExecutor with a 10 s stream
// send timeout), a workflow worker that knows the app id, an activity
// worker and a task hub worker over both. Dapr's backend is its actors;
// this one is durabletask-go's sqlite backend (backend/sqlite), in memory,
// its timers stamped when they fire as Dapr's are (backend.go).
// The app connects over gRPC as a Dapr app does through its sidecar
// (durabletask-go workflow.Client StartWorker, the SDK's workflow and task
// packages), and the histories and instance metadata are read over the
// same gRPC service the Dapr CLI v1.18.0 reads (pkg/workflow/dclient
// InstanceHistory: GetInstanceHistory). The gRPC connection is in memory
// (bufconn); the activities' scripted failures come from a fake provider on
// the loopback address.
//
// Every run differs in its ids, timestamps and, for actions of one turn,
// order (v0.12.1 emits them in map order). The suite asserts only what the
// engine guarantees.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/dapr/durabletask-go/api/protos"
	"github.com/dapr/durabletask-go/backend"
	"github.com/dapr/durabletask-go/backend/sqlite"
	"github.com/dapr/durabletask-go/workflow"
)

// appID is the app every scenario runs in.
const appID = "orders"

func main() {
	out := flag.String("out", "..", "the folder the histories are written to")
	only := flag.String("only", "", "run only the scenarios whose names contain this")
	flag.Parse()
	if err := run(*out, *only); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out, only string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	prov := newProvider()
	defer prov.close()
	eng, err := startEngine(ctx, prov)
	if err != nil {
		return err
	}
	defer func() {
		cancel() // the app's worker first, then the sidecar
		eng.stop()
	}()

	var index strings.Builder
	index.WriteString("# scenario\tapp\tinstance\tcaptured_at\n")
	for _, sc := range scenarios() {
		if only != "" && !strings.Contains(sc.name, only) {
			continue
		}
		start := time.Now()
		id, err := sc.drive(ctx, eng)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
		captured, err := eng.capture(ctx, out, sc.name, id)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
		fmt.Fprintf(&index, "%s\t%s\t%s\t%s\n", sc.name, appID, id, captured.Format(time.RFC3339Nano))
		fmt.Printf("%-28s %s in %.1fs\n", sc.name, id, time.Since(start).Seconds())
	}
	if only != "" {
		return nil
	}
	return os.WriteFile(filepath.Join(out, "runs.tsv"), []byte(index.String()), 0o644)
}

// engine is the sidecar side (backend, executor, workers, gRPC server) and
// the app side (a client over the gRPC connection, its worker started).
type engine struct {
	be      backend.Backend
	prov    *provider
	worker  backend.TaskHubWorker
	server  *grpc.Server
	conn    *grpc.ClientConn
	client  *workflow.Client
	sidecar protos.TaskHubSidecarServiceClient
}

func startEngine(ctx context.Context, prov *provider) (*engine, error) {
	logger := quietLogger{}
	be := daprTimers{sqlite.NewSqliteBackend(sqlite.NewSqliteOptions(""), logger)}
	grpcExec, register := backend.NewGrpcExecutor(be, logger, backend.WithStreamSendTimeout(10*time.Second))
	oworker := backend.NewWorkflowWorker(backend.WorkflowWorkerOptions{
		Backend:  be,
		Executor: grpcExec,
		Logger:   logger,
		AppID:    appID,
	})
	aworker := backend.NewActivityTaskWorker(be, grpcExec, logger)
	worker := backend.NewTaskHubWorker(be, oworker, aworker, logger)
	if err := worker.Start(ctx); err != nil {
		return nil, fmt.Errorf("starting the task hub worker: %w", err)
	}

	lis := bufconn.Listen(1 << 20)
	server := grpc.NewServer()
	register(server)
	go func() { _ = server.Serve(lis) }()
	conn, err := grpc.NewClient("passthrough:///sidecar",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	eng := &engine{be: be, prov: prov, worker: worker, server: server, conn: conn,
		client: workflow.NewClientWithLogger(conn, logger), sidecar: protos.NewTaskHubSidecarServiceClient(conn)}
	reg := workflow.NewRegistry()
	if err := registerApp(reg, prov); err != nil {
		return nil, err
	}
	if err := eng.client.StartWorker(ctx, reg); err != nil {
		return nil, fmt.Errorf("starting the app's worker: %w", err)
	}
	return eng, nil
}

func (e *engine) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = e.worker.Shutdown(ctx)
	_ = e.conn.Close()
	e.server.Stop()
}

// capture reads the run's history and metadata as the CLI and Catalyst
// read them (GetInstanceHistory, GetInstance with payloads) and writes
// them; it returns the moment it read them.
func (e *engine) capture(ctx context.Context, out, name, id string) (time.Time, error) {
	hist, err := e.sidecar.GetInstanceHistory(ctx, &protos.GetInstanceHistoryRequest{InstanceId: id})
	if err != nil {
		return time.Time{}, fmt.Errorf("reading the history: %w", err)
	}
	captured := time.Now().UTC()
	meta, err := e.sidecar.GetInstance(ctx, &protos.GetInstanceRequest{InstanceId: id, GetInputsAndOutputs: true})
	if err != nil {
		return time.Time{}, fmt.Errorf("reading the metadata: %w", err)
	}
	opts := protojson.MarshalOptions{Multiline: true, Indent: " "}
	hb, err := opts.Marshal(hist)
	if err != nil {
		return time.Time{}, err
	}
	mb, err := opts.Marshal(meta)
	if err != nil {
		return time.Time{}, err
	}
	if err := os.WriteFile(filepath.Join(out, name+".history.json"), append(hb, '\n'), 0o644); err != nil {
		return time.Time{}, err
	}
	if err := os.WriteFile(filepath.Join(out, name+".instance.json"), append(mb, '\n'), 0o644); err != nil {
		return time.Time{}, err
	}
	return captured, nil
}

// waitFor polls the run's history until cond holds for it.
func (e *engine) waitFor(ctx context.Context, id, what string, cond func([]*protos.HistoryEvent) bool) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		h, err := e.sidecar.GetInstanceHistory(ctx, &protos.GetInstanceHistoryRequest{InstanceId: id})
		if err == nil && cond(h.GetEvents()) {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return errors.New("timed out waiting for " + what)
}

// waitStatus waits until the run's runtime status is one of want.
func (e *engine) waitStatus(ctx context.Context, id string, want ...protos.OrchestrationStatus) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		m, err := e.client.FetchWorkflowMetadata(ctx, id)
		if err == nil {
			for _, w := range want {
				if m.RuntimeStatus == w {
					return nil
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("timed out waiting for %s to be %v", id, want)
}

// quietLogger drops the engine's logs but its errors.
type quietLogger struct{}

func (quietLogger) Debug(...any)          {}
func (quietLogger) Debugf(string, ...any) {}
func (quietLogger) Info(...any)           {}
func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Warn(...any)           {}
func (quietLogger) Warnf(string, ...any)  {}
func (quietLogger) Error(v ...any)        { fmt.Fprintln(os.Stderr, append([]any{"engine:"}, v...)...) }
func (quietLogger) Errorf(f string, v ...any) {
	fmt.Fprintf(os.Stderr, "engine: "+f+"\n", v...)
}
