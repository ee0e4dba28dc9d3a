// A tenant provisioner creates a schema and a login named by the input
// or, when the input names none, by a fresh suffix; the DDL runs behind an
// interface whose one implementation is in the tree, reached through a
// package-level variable that tests can swap. CREATE SCHEMA / CREATE USER
// refuse an existing name, so the name is the statement's key: a fresh
// one creates another schema and another login on every attempt. (Issue
// 21: the shape of a Postgres provisioning service.)
package tenant

import (
	"context"
	"fmt"

	"github.com/dapr/go-sdk/workflow"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

type ddl interface {
	CreateSchema(ctx context.Context, name string) error
	CreateLogin(ctx context.Context, name, secret string) error
}

type pgDDL struct{ conn *pgx.Conn }

func dialDDL(ctx context.Context, url string) (ddl, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	return &pgDDL{conn: conn}, nil
}

// openDDL is swapped by tests.
var openDDL = dialDDL

func (d *pgDDL) CreateSchema(ctx context.Context, name string) error {
	_, err := d.conn.Exec(ctx, fmt.Sprintf("CREATE SCHEMA %s", pgx.Identifier{name}.Sanitize())) // want: key-generated-in-body
	return err
}

func (d *pgDDL) CreateLogin(ctx context.Context, name, secret string) error {
	_, err := d.conn.Exec(ctx, fmt.Sprintf("CREATE USER %s WITH PASSWORD '%s'", name, secret))
	return err
}

type TenantInput struct {
	URL    string `json:"url"`
	Schema string `json:"schema"`
	Login  string `json:"login"`
}

func tag() string { return uuid.NewString()[:8] }

func ProvisionSchema(ctx workflow.ActivityContext) (any, error) {
	var in TenantInput
	if err := ctx.GetInput(&in); err != nil {
		return nil, err
	}
	name := in.Schema
	if name == "" {
		name = "tenant_" + tag()
	}
	d, err := openDDL(context.Background(), in.URL)
	if err != nil {
		return nil, err
	}
	if err := d.CreateSchema(context.Background(), name); err != nil {
		return nil, err
	}
	return name, nil
}

// ProvisionLogin names the login from the input: CREATE USER refuses a
// second login of that name, so a second run is refused.
func ProvisionLogin(ctx workflow.ActivityContext) (any, error) {
	var in TenantInput
	if err := ctx.GetInput(&in); err != nil {
		return nil, err
	}
	d, err := openDDL(context.Background(), in.URL)
	if err != nil {
		return nil, err
	}
	return in.Login, d.CreateLogin(context.Background(), in.Login, in.URL)
}

func Register(r *workflow.WorkflowWorker) error {
	if err := r.RegisterActivity(ProvisionSchema); err != nil {
		return err
	}
	return r.RegisterActivity(ProvisionLogin)
}
