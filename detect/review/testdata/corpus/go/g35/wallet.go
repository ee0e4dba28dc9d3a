// corpus: negative (already idempotent)
// negative-for: unkeyed-side-effect
// The credit is a compare-and-swap on the row's version: a repeat finds
// the version moved on and changes nothing.
package main

import (
	"database/sql"

	"github.com/dapr/durabletask-go/workflow"
)

var db *sql.DB

type Credit struct {
	WalletID string
	Cents    int64
	Version  int64
}

func CreditWallet(ctx workflow.ActivityContext) (any, error) {
	var c Credit
	if err := ctx.GetInput(&c); err != nil {
		return nil, err
	}
	_, err := db.ExecContext(ctx.Context(),
		"UPDATE wallets SET balance = balance + $1, version = version + 1 WHERE id = $2 AND version = $3", c.Cents, c.WalletID, c.Version)
	return nil, err
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(CreditWallet)
}
