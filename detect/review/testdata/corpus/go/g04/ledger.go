// corpus: negative (already idempotent)
// negative-for: unkeyed-side-effect
// the INSERT is conditional on the
// natural key (ON CONFLICT DO NOTHING), so the store refuses the repeat.
package main

import (
	"database/sql"

	"github.com/dapr/durabletask-go/workflow"
)

type Entry struct {
	OrderID string
	Cents   int64
}

var db *sql.DB

func RecordEntry(ctx workflow.ActivityContext) (any, error) {
	var e Entry
	if err := ctx.GetInput(&e); err != nil {
		return nil, err
	}
	const q = `INSERT INTO ledger_entries (order_id, cents) VALUES ($1, $2)
		ON CONFLICT (order_id) DO NOTHING`
	if _, err := db.ExecContext(ctx.Context(), q, e.OrderID, e.Cents); err != nil {
		return nil, err
	}
	return e.OrderID, nil
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(RecordEntry)
}
