// Writes a ledger row with database/sql and no conflict clause.
package main

import (
	"database/sql"

	"github.com/dapr/durabletask-go/workflow"
	_ "github.com/jackc/pgx/v5/stdlib"
)

type Entry struct {
	OrderID string
	Cents   int64
}

type Ledger struct{ db *sql.DB }

func (l *Ledger) RecordEntry(ctx workflow.ActivityContext) (any, error) {
	var e Entry
	if err := ctx.GetInput(&e); err != nil {
		return nil, err
	}
	_, err := l.db.ExecContext(ctx.Context(), // want: unkeyed-side-effect
		`INSERT INTO ledger_entries (order_id, cents) VALUES ($1, $2)`, e.OrderID, e.Cents)
	return nil, err
}

func main() {
	db, _ := sql.Open("pgx", "postgres://localhost/ledger")
	l := &Ledger{db: db}
	r := workflow.NewRegistry()
	_ = r.AddActivityN("RecordEntry", l.RecordEntry)
}
