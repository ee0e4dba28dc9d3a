// corpus: negative (already idempotent)
// negative-for: unkeyed-side-effect
// DELETE by id; a second delete is
// a no-op.
package main

import (
	"database/sql"

	"github.com/dapr/durabletask-go/workflow"
)

var db *sql.DB

func CancelReservation(ctx workflow.ActivityContext) (any, error) {
	var id string
	if err := ctx.GetInput(&id); err != nil {
		return nil, err
	}
	_, err := db.ExecContext(ctx.Context(), "DELETE FROM reservations WHERE id = $1", id)
	return nil, err
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(CancelReservation)
}
